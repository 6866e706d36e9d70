import type { Doctor } from '../doctor.js';
import type { DoctorExtras } from '../doctor-extras.js';
import type { RecordPage } from '../doctor-page.js';
import type { ProfileRef } from '../profile-url.js';
import { needsExtras, shapeRecord, type RecordShape, type ShapedRecord } from '../record-shape.js';
import { encodeCursor, type SortValues } from './cursor.js';
import { GEO_RADIUS_DEFAULT_M, toDistanceMeters, type GeoPoint } from './geo.js';
import { openAtClause, type OpenAtFilter } from './open-at.js';
import type { SearchField } from './search-document.js';
import { assertNever } from '../assert-never.js';
import { requirePageSize } from '../query-parameters.js';
import { SEARCH_FILTERS, canonicalFilters, type SearchFilters } from './search-filters.js';

/**
 * Elasticsearch request bodies for search and lookups, as plain objects (the search package sends them
 * through the search-index adapter), and the conversion of search hits into a DoctorPage. Field names are
 * those of the search document written by `toSearchDocument`; the filter clauses come from the filter table.
 *
 * `q` semantics (docs/api.md, `GET /api/v1/doctors` — search): literal — it only ever reaches a
 * `match_bool_prefix` query, which analyzes text and never parses query syntax (no query_string /
 * simple_query_string anywhere), so `*`, quotes, `OR` or `field:value` are just words. It is folded with the
 * same `foldText` as the indexed `searchText`, so matching is case- and accent-insensitive; `operator: 'and'`
 * makes every word required and `match_bool_prefix` lets the last word be a prefix. A q without any word the
 * standard analyzer keeps (e.g. "!!!") matches nothing.
 *
 * Ordering is deterministic: folded name, then place id (unique), the values a cursor carries. With `near` it
 * is the arc distance in metres from that point, then place id: the distance is the sort value Elasticsearch
 * returns, so it is both the cursor's first value and the record's `distanceMeters` (rounded), and a later
 * page compares exactly the number the earlier one returned.
 *
 * `openAt` / `openNow` only filter. `openNow` is the request's own time, which the caller (the route or tool
 * that received the request) passes in as `requestTime`: the domain reads no clock.
 */

export type TermFilter = { term: Partial<Record<SearchField, string | boolean>> };

export type TextQuery = {
  match_bool_prefix: Partial<Record<SearchField, { query: string; operator: 'and' }>>;
};

export type GeoDistanceFilter = { geo_distance: { distance: string; location: GeoPoint } };

type GeoDistanceSort = {
  _geo_distance: { location: GeoPoint; order: 'asc'; unit: 'm'; distance_type: 'arc' };
};

export type SearchRequestBody = {
  size: number;
  query: { bool: { filter: Array<TermFilter | GeoDistanceFilter | OpenAtFilter>; must?: TextQuery[] } };
  sort: [{ sortName: 'asc' } | GeoDistanceSort, { placeId: 'asc' }];
  search_after?: SortValues;
  _source: SourceFields;
  track_total_hits: false;
};

export type ProfileRequestBody = {
  size: 1;
  query: { bool: { filter: TermFilter[] } };
  sort: [{ placeId: 'asc' }];
  _source: SourceFields;
  track_total_hits: false;
};

export type ByIdRequestBody = {
  size: 1;
  query: { bool: { filter: [{ ids: { values: [string] } }, TermFilter] } };
  _source: SourceFields;
  track_total_hits: false;
};

/** The stored fields a request reads back (`_source`): the record, its extras when asked, sort values. */
type SourceFields = Array<'doctor' | 'extras' | 'sortName' | 'placeId'>;

/** What a search or lookup request asks back of each hit (`_source`); `extras` only when the shape needs them. */
export type SearchHitSource = { doctor: Doctor; extras?: DoctorExtras; sortName: string; placeId: string };
/** A hit: its `_source`, and its sort values (a geo search's first one is the distance). */
export type SearchHit = { _source?: SearchHitSource | undefined; sort?: readonly unknown[] | undefined };

// Tombstones ({ served: false }) stay in the index so stale writes cannot resurrect a record; every
// query must exclude them.
export const SERVED: TermFilter = { term: { served: true } };

/** `_source` for a record of this shape, plus what else the request reads. */
function sourceFor(shape: RecordShape, ...more: SourceFields): SourceFields {
  return needsExtras(shape) ? ['doctor', 'extras', ...more] : ['doctor', ...more];
}

export function buildSearchRequest(
  filters: SearchFilters,
  limit: number,
  after?: SortValues,
  requestTime?: Date,
  shape: RecordShape = {},
): SearchRequestBody {
  requirePageSize(limit);
  const filter: SearchRequestBody['query']['bool']['filter'] = [SERVED];
  const must: TextQuery[] = [];
  let near: GeoPoint | undefined;
  let radius: number | undefined;
  const country = SEARCH_FILTERS.country.canonical(filters.country);
  for (const { field, match, value } of canonicalFilters(filters)) {
    switch (match) {
      case 'term':
        if (typeof value !== 'string' && typeof value !== 'boolean')
          throw new Error(`term filter on ${field} needs a string or boolean`);
        filter.push({ term: { [field]: value } });
        break;
      case 'words':
        if (typeof value !== 'string') throw new Error(`words filter on ${field} needs text`);
        must.push({ match_bool_prefix: { [field]: { query: value, operator: 'and' } } });
        break;
      case 'near':
        if (!isGeoPoint(value)) throw new Error(`near filter on ${field} needs a point`);
        near = value;
        break;
      case 'radius':
        if (typeof value !== 'number') throw new Error(`radius filter on ${field} needs metres`);
        radius = value;
        break;
      case 'openAt':
        if (typeof value !== 'string') throw new Error(`openAt filter on ${field} needs an instant`);
        filter.push(openAtClause(country, new Date(value)));
        break;
      case 'openNow':
        if (requestTime === undefined) throw new Error('openNow needs the request time');
        filter.push(openAtClause(country, requestTime));
        break;
      default:
        assertNever(match);
    }
  }
  // Validated at the edge (radius needs near); anything else here is a programming error.
  if (radius !== undefined && near === undefined) throw new Error('radius without near');
  if (near !== undefined) {
    filter.push({ geo_distance: { distance: `${radius ?? GEO_RADIUS_DEFAULT_M}m`, location: near } });
  }

  const body: SearchRequestBody = {
    // One more than asked: its presence is how we know another page follows, without counting.
    size: limit + 1,
    query: { bool: { filter } },
    sort: [
      near === undefined
        ? { sortName: 'asc' }
        : { _geo_distance: { location: near, order: 'asc', unit: 'm', distance_type: 'arc' } },
      { placeId: 'asc' },
    ],
    _source: sourceFor(shape, 'sortName', 'placeId'),
    track_total_hits: false,
  };
  if (must.length > 0) body.query.bool.must = must;
  if (after !== undefined) {
    if (typeof after[0] !== (near === undefined ? 'string' : 'number'))
      throw new Error('cursor sort values do not fit the ordering of these filters');
    body.search_after = [after[0], after[1]];
  }
  return body;
}

/** One served record by its profile-URL coordinates (every page language resolves the same way). */
export function buildGetByProfileQuery(lookup: ProfileRef, shape: RecordShape = {}): ProfileRequestBody {
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
    _source: sourceFor(shape),
    track_total_hits: false,
  };
}

/**
 * One served record by place id. A search rather than a GET: it works whatever the alias points at
 * and applies the served filter.
 */
export function buildGetByIdQuery(placeId: string, shape: RecordShape = {}): ByIdRequestBody {
  return {
    size: 1,
    query: { bool: { filter: [{ ids: { values: [placeId] } }, SERVED] } },
    _source: sourceFor(shape),
    track_total_hits: false,
  };
}

/**
 * Turns the hits of a `buildSearchRequest(filters, limit, …)` query into a DoctorPage. There are
 * `limit + 1` hits exactly when another page follows; the extra one is dropped and the cursor points
 * after the last record returned.
 */
export function toDoctorPage<Shape extends RecordShape = { fields?: undefined }>(
  hits: ReadonlyArray<SearchHit>,
  limit: number,
  filters: SearchFilters,
  secret: string,
  shape: Shape = {} as Shape,
): RecordPage<ShapedRecord<Shape>> {
  requirePageSize(limit);
  const hasMore = hits.length > limit;
  const byDistance = filters.near !== undefined;
  const results = hits.slice(0, limit).map((hit) => {
    // We always request _source; its absence means the index or request is broken, not the client.
    if (hit._source === undefined) throw new Error('search hit without _source');
    const { doctor, extras, sortName, placeId } = hit._source;
    // Neither shape has a `distanceMeters` of its own: a search record may add it.
    const record = shapeRecord(doctor, extras, shape) as ShapedRecord<Shape> & { distanceMeters?: number };
    if (!byDistance) return { record, after: [sortName, placeId] as SortValues };
    const distance = hit.sort?.[0];
    // The exact sort value goes into the cursor; the record shows it in whole metres.
    return {
      record: { ...record, distanceMeters: toDistanceMeters(distance) },
      after: [distance as number, placeId] as SortValues,
    };
  });
  const last = results[results.length - 1];
  const nextCursor =
    hasMore && last !== undefined ? encodeCursor({ after: last.after, filters }, secret) : null;
  return {
    doctors: results.map((result) => result.record),
    page: { count: results.length, hasMore, nextCursor },
  };
}

function isGeoPoint(value: unknown): value is GeoPoint {
  return typeof value === 'object' && value !== null && 'lat' in value && 'lon' in value;
}
