import { encodeCursor } from './cursor.js';
import type { Doctor } from './doctor.js';
import type { ProfileRef } from './profile-url.js';
import type { SearchFilters } from './search-params.js';
import { foldText } from './text.js';

/**
 * Elasticsearch request bodies for search and profile lookup, as plain objects (the search-index
 * package sends them). Field names are those of the search document written by `toSearchDocument`.
 *
 * `q` semantics (DESIGN): literal — it only ever reaches a `match_bool_prefix` query, which analyzes
 * text and never parses query syntax (no query_string / simple_query_string anywhere), so `*`, quotes,
 * `OR` or `field:value` are just words. It is folded with the same `foldText` as the indexed
 * `searchText`, so matching is case- and accent-insensitive; `operator: 'and'` makes every word
 * required and `match_bool_prefix` lets the last word be a prefix. A q without any word the standard
 * analyzer keeps (e.g. "!!!") matches nothing.
 *
 * Ordering is deterministic: folded name, then place id (unique), the values a cursor carries.
 */

export type TermFilter = { term: Record<string, string | boolean> };

export type TextQuery = {
  match_bool_prefix: { searchText: { query: string; operator: 'and' } };
};

export type SearchRequestBody = {
  size: number;
  query: { bool: { filter: TermFilter[]; must?: TextQuery[] } };
  sort: [{ sortName: 'asc' }, { placeId: 'asc' }];
  search_after?: [string, string];
  _source: ['doctor', 'sortName', 'placeId'];
  track_total_hits: false;
};

export type ProfileRequestBody = {
  size: 1;
  query: { bool: { filter: TermFilter[] } };
  sort: [{ placeId: 'asc' }];
  _source: ['doctor'];
  track_total_hits: false;
};

export type SearchHitSource<TDoctor = Doctor> = { doctor: TDoctor; sortName: string; placeId: string };
export type SearchHit<TDoctor = Doctor> = { _source?: SearchHitSource<TDoctor> | undefined };

export type DoctorPage<TDoctor = Doctor> = {
  doctors: TDoctor[];
  page: { count: number; hasMore: boolean; nextCursor: string | null };
};

// Tombstones ({ served: false }) stay in the index so stale writes cannot resurrect a record; every
// query must exclude them.
const SERVED: TermFilter = { term: { served: true } };

export function buildSearchRequest(
  filters: SearchFilters,
  limit: number,
  after?: [string, string],
): SearchRequestBody {
  requirePageSize(limit);
  const filter: TermFilter[] = [SERVED, { term: { country: filters.country.toLowerCase() } }];
  if (filters.city !== undefined) filter.push({ term: { citySlug: filters.city } });
  if (filters.whatsapp !== undefined) filter.push({ term: { whatsappEligible: filters.whatsapp } });
  if (filters.verified !== undefined) filter.push({ term: { verified: filters.verified } });

  const body: SearchRequestBody = {
    // One more than asked: its presence is how we know another page follows, without counting.
    size: limit + 1,
    query: { bool: { filter } },
    sort: [{ sortName: 'asc' }, { placeId: 'asc' }],
    _source: ['doctor', 'sortName', 'placeId'],
    track_total_hits: false,
  };
  if (filters.q !== undefined) {
    body.query.bool.must = [
      { match_bool_prefix: { searchText: { query: foldText(filters.q), operator: 'and' } } },
    ];
  }
  if (after !== undefined) body.search_after = [after[0], after[1]];
  return body;
}

/** One served record by its profile-URL coordinates (every page language resolves the same way). */
export function buildGetByProfileQuery(lookup: ProfileRef): ProfileRequestBody {
  return {
    size: 1,
    query: {
      bool: {
        filter: [
          SERVED,
          { term: { country: lookup.country.toLowerCase() } },
          { term: { citySlug: lookup.citySlug } },
          { term: { profileSlug: lookup.profileSlug } },
        ],
      },
    },
    // Slugs should be unique per city; if data ever breaks that, answer deterministically.
    sort: [{ placeId: 'asc' }],
    _source: ['doctor'],
    track_total_hits: false,
  };
}

/**
 * Turns the hits of a `buildSearchRequest(filters, limit, …)` query into a DoctorPage. There are
 * `limit + 1` hits exactly when another page follows; the extra one is dropped and the cursor points
 * after the last record returned.
 */
export function toDoctorPage<TDoctor = Doctor>(
  hits: ReadonlyArray<SearchHit<TDoctor>>,
  limit: number,
  filters: SearchFilters,
  secret: string,
): DoctorPage<TDoctor> {
  requirePageSize(limit);
  const hasMore = hits.length > limit;
  const sources = hits.slice(0, limit).map((hit) => {
    // We always request _source; its absence means the index or request is broken, not the client.
    if (hit._source === undefined) throw new Error('search hit without _source');
    return hit._source;
  });
  const last = sources[sources.length - 1];
  const nextCursor =
    hasMore && last !== undefined
      ? encodeCursor({ after: [last.sortName, last.placeId], filters }, secret)
      : null;
  return {
    doctors: sources.map((source) => source.doctor),
    page: { count: sources.length, hasMore, nextCursor },
  };
}

function requirePageSize(limit: number): void {
  // Validated at the edge (1..100); anything else here is a programming error.
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`page size must be a positive integer, got ${limit}`);
}
