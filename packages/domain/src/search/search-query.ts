import type { Doctor } from '../places/doctor.js';
import type { DoctorExtras } from '../places/doctor-extras.js';
import type { RecordPage } from './doctor-page.js';
import type { ProfileRef } from '../places/profile-url.js';
import { needsExtras, shapeRecord, type RecordShape, type ShapedRecord } from '../requests/record-shape.js';
import { encodeCursor, filterFingerprint, type SortValues } from './cursor.js';
import {
  GEO_RADIUS_DEFAULT_M,
  arcDistanceMeters,
  toDistanceMeters,
  type BoundingBox,
  type GeoPoint,
} from './geo.js';
import {
  distanceDecay,
  relevanceTextQuery,
  type DistanceDecay,
  type ScoredTextQuery,
} from './search-relevance.js';
import { TOTAL_EXACT_UP_TO, boundSortOrder, sortOrderOf, type SortOrder } from './search-order.js';
import { openAtClause, type OpenAtFilter } from './open-at.js';
import { citySlugsOf } from './place-names.js';
import type { SearchField } from './search-document.js';
import { assertNever } from '../shared/assert-never.js';
import { requirePageSize } from '../requests/query-parameters.js';
import {
  SEARCH_FILTERS,
  canonicalFilters,
  canonicalInternalFilters,
  type InternalFilters,
  type SearchFilters,
} from './search-filters.js';
import {
  buildFacetAggregations,
  type FacetAggregations,
  type FacetRequest,
  type NamedClause,
} from './facets.js';

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
 * Ordering (search-order.ts) is deterministic: folded name, then place id (unique), the values a cursor
 * carries. With `near` the default is the arc distance in metres from that point, then place id: the
 * distance is the sort value Elasticsearch returns, so it is both the cursor's first value and the
 * record's `distanceMeters` (rounded), and a later page compares exactly the number the earlier one
 * returned. `sort=relevance` orders by score, then place id; its `q` is the scored query of
 * search-relevance.ts instead of the literal one (typos, prefixes, compounds, specialties in any
 * language), and the score is the cursor's first value.
 *
 * `bbox` filters by a viewport; `count=true` asks Elasticsearch to count up to TOTAL_EXACT_UP_TO.
 *
 * `openAt` / `openNow` only filter. `openNow` is the request's own time, which the caller (the route or tool
 * that received the request) passes in as `requestTime`: the domain reads no clock.
 */

export type TermFilter = { term: Partial<Record<SearchField, string | boolean>> };

/** A city by any of its slugs (place-names.ts). */
type CitySlugsFilter = { terms: { citySlug: string[] } };

export type TextQuery = {
  match_bool_prefix: Partial<Record<SearchField, { query: string; operator: 'and' }>>;
};

export type GeoDistanceFilter = { geo_distance: { distance: string; location: GeoPoint } };

export type GeoBoundingBoxFilter = {
  geo_bounding_box: { location: { top_left: GeoPoint; bottom_right: GeoPoint } };
};

/** A `q` without any word under relevance search: like literal search, it matches nothing. */
type MatchNothing = { match_none: Record<string, never> };

type SinceFilter = { range: { [field: string]: { gte?: string; lt?: string; lte?: string } } };

/** `name:contains` (an internal filter): the folded text anywhere in the folded display name. */
type WildcardFilter = { wildcard: { sortName: { value: string } } };

/** `specialtyAny` (an internal filter): any of the codes. */
type SpecialtyCodesFilter = { terms: { specialtyCodes: string[] } };

/** `nameExact` with `orLegalName` (an internal filter): either exact name. */
type EitherTermFilter = { bool: { should: TermFilter[]; minimum_should_match: 1 } };

/** `postalCodePrefix` and `addressPrefix` (internal filters): a key starts with the text. */
type PrefixFilter = { prefix: { postalCode: { value: string } } | { addressKeys: { value: string } } };

type SearchFilterClause =
  | TermFilter
  | CitySlugsFilter
  | GeoDistanceFilter
  | GeoBoundingBoxFilter
  | OpenAtFilter
  | SinceFilter
  | WildcardFilter
  | SpecialtyCodesFilter
  | EitherTermFilter
  | PrefixFilter
  | TextQuery
  | MatchNothing;

type GeoDistanceSort = {
  _geo_distance: { location: GeoPoint; order: 'asc'; unit: 'm'; distance_type: 'arc' };
};

type FilteredQuery = {
  bool: { filter: SearchFilterClause[]; must?: Array<TextQuery | ScoredTextQuery> };
};

/** With `near`, a relevance search multiplies each score by its distance decay (search-relevance.ts). */
type DecayedQuery = {
  function_score: { query: FilteredQuery; functions: [DistanceDecay]; boost_mode: 'multiply' | 'replace' };
};

export type SearchRequestBody = {
  size: number;
  query: FilteredQuery | DecayedQuery;
  sort: [{ sortName: 'asc' } | GeoDistanceSort | { _score: 'desc' }, { placeId: 'asc' }];
  search_after?: SortValues;
  _source: SourceFields;
  track_total_hits: false | number;
  /** Relevance pages of one search read the same shard copies, so their scores agree (see below). */
  preference?: string;
};

/** A search's facets (facets.ts), asked beside its page: see buildFacetsRequest. */
export type FacetsRequestBody = {
  size: 0;
  query: FilteredQuery;
  aggs: FacetAggregations<SearchFilterClause, TextQuery | ScoredTextQuery>;
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

/** How a search orders its records and whether it counts them (search-order.ts); absent: as 1.2 did. */
export type SearchOrder = { sort?: SortOrder | undefined; count?: boolean | undefined };

/** How many records matched, when the search counted (`count=true`): Elasticsearch's `hits.total`. */
export type SearchTotal = { value: number; relation: 'eq' | 'gte' };

// Tombstones ({ served: false }) stay in the index so stale writes cannot resurrect a record; every
// query must exclude them.
export const SERVED: TermFilter = { term: { served: true } };

/** `_source` for a record of this shape, plus what else the request reads. */
function sourceFor(shape: RecordShape, ...more: SourceFields): SourceFields {
  return needsExtras(shape) ? ['doctor', 'extras', ...more] : ['doctor', ...more];
}

/** The first sort value's JSON type in each order: what a cursor of that order must carry. */
const FIRST_SORT_VALUE_TYPE: Record<SortOrder, 'string' | 'number'> = {
  name: 'string',
  distance: 'number',
  relevance: 'number',
};

export function buildSearchRequest(
  filters: SearchFilters,
  limit: number,
  after?: SortValues,
  requestTime?: Date,
  shape: RecordShape = {},
  order: SearchOrder = {},
): SearchRequestBody {
  requirePageSize(limit);
  const sort = sortOrderOf(filters, order.sort);
  if (sort === 'distance' && filters.near === undefined) throw new Error('sort by distance without near');
  const { named, must, near, radiusMeters } = searchClauses(filters, sort, requestTime);
  const filter = named.map(({ clause }) => clause);
  const filtered: FilteredQuery = { bool: { filter } };
  if (must.length > 0) filtered.bool.must = must;
  const body: SearchRequestBody = {
    // One more than asked: its presence is how we know another page follows, without counting.
    size: limit + 1,
    query:
      sort === 'relevance' && near !== undefined
        ? {
            function_score: {
              query: filtered,
              functions: [distanceDecay(near, radiusMeters)],
              // Without q every record scores alike: the decay alone orders them.
              boost_mode: must.length > 0 ? 'multiply' : 'replace',
            },
          }
        : filtered,
    sort: [firstSortKey(sort, near), { placeId: 'asc' }],
    _source: sourceFor(shape, 'sortName', 'placeId'),
    track_total_hits: order.count === true ? TOTAL_EXACT_UP_TO : false,
  };
  if (sort === 'relevance') {
    // Scores depend on a shard copy's statistics; every page of one search (the same filters) reads
    // the same copies, so a cursor's score is compared with the scores it was taken from.
    // (A preference may not start with `_`, which Elasticsearch reserves and base64url can begin with.)
    body.preference = `search-${filterFingerprint(filters, sort)}`;
  }
  if (after !== undefined) {
    if (typeof after[0] !== FIRST_SORT_VALUE_TYPE[sort])
      throw new Error('cursor sort values do not fit the ordering of these filters');
    body.search_after = [after[0], after[1]];
  }
  return body;
}

/**
 * The facets of a search, as a request of its own beside the page's: the records the search selects (its
 * filters and text query: a count needs no score, so no distance decay, sort or size), whatever the page's
 * cursor, size, shape or order. So every page of a search, in any page size, asks the same request: the
 * hot-query cache answers it once, and searches that share their filters and facets share it. The sort
 * order only chooses how `q` matches (scored words under relevance, prefixes otherwise), as on the page.
 */
export function buildFacetsRequest(
  filters: SearchFilters,
  facets: FacetRequest,
  requestTime?: Date,
  order: SearchOrder = {},
): FacetsRequestBody {
  const sort = sortOrderOf(filters, order.sort);
  const { named, must } = searchClauses(filters, sort, requestTime);
  const country = SEARCH_FILTERS.country.canonical(filters.country);
  // The openNow facet counts at the request time, as the openNow filter does.
  const openNow = facets.names.includes('openNow')
    ? openAtClause(country, requireRequestTime(requestTime))
    : undefined;
  const filter = named.map(({ clause }) => clause);
  return {
    size: 0,
    query: { bool: must.length > 0 ? { filter, must } : { filter } },
    aggs: buildFacetAggregations(facets, country, named, must, openNow),
    track_total_hits: false,
  };
}

type SearchClauses = {
  /** Every filter clause, each with the filter it comes from (facets leave their own out). */
  named: Array<NamedClause<SearchFilterClause>>;
  must: Array<TextQuery | ScoredTextQuery>;
  near: GeoPoint | undefined;
  radiusMeters: number;
};

/** The clauses that select a search's records, whatever it then does with them (page, facets). */
function searchClauses(
  filters: SearchFilters,
  sort: SortOrder,
  requestTime: Date | undefined,
): SearchClauses {
  const named: Array<NamedClause<SearchFilterClause>> = [{ from: 'served', clause: SERVED }];
  const must: Array<TextQuery | ScoredTextQuery> = [];
  let near: GeoPoint | undefined;
  let radius: number | undefined;
  const country = SEARCH_FILTERS.country.canonical(filters.country);
  for (const { name, field, match, value } of canonicalFilters(filters)) {
    const add = (clause: SearchFilterClause) => named.push({ from: name, clause });
    switch (match) {
      case 'term':
        if (typeof value !== 'string' && typeof value !== 'boolean')
          throw new Error(`term filter on ${field} needs a string or boolean`);
        add({ term: { [field]: value } });
        break;
      case 'city': {
        if (typeof value !== 'string') throw new Error(`city filter on ${field} needs a slug`);
        const slugs = citySlugsOf(country, value);
        // A slug without other names is sent as before, the request unchanged.
        add(slugs.length > 1 ? { terms: { citySlug: [...slugs] } } : { term: { [field]: value } });
        break;
      }
      case 'words': {
        if (typeof value !== 'string') throw new Error(`words filter on ${field} needs text`);
        if (sort !== 'relevance') {
          must.push({ match_bool_prefix: { [field]: { query: value, operator: 'and' } } });
          break;
        }
        const scored = relevanceTextQuery(value, country);
        if (scored === null) add({ match_none: {} });
        else must.push(scored);
        break;
      }
      case 'near':
        if (!isGeoPoint(value)) throw new Error(`near filter on ${field} needs a point`);
        near = value;
        break;
      case 'radius':
        if (typeof value !== 'number') throw new Error(`radius filter on ${field} needs metres`);
        radius = value;
        break;
      case 'bbox':
        if (!isBoundingBox(value)) throw new Error(`bbox filter on ${field} needs a box`);
        add(boundingBoxClause(value));
        break;
      case 'openAt':
        if (typeof value !== 'string') throw new Error(`openAt filter on ${field} needs an instant`);
        add(openAtClause(country, new Date(value)));
        break;
      case 'openNow':
        add(openAtClause(country, requireRequestTime(requestTime)));
        break;
      case 'since':
        if (typeof value !== 'string') throw new Error(`since filter on ${field} needs an instant`);
        add({ range: { [field]: { gte: value } } });
        break;
      default:
        assertNever(match);
    }
  }
  for (const clause of internalClauses(filters.internal)) named.push({ from: 'internal', clause });
  // Validated at the edge (radius needs near); anything else here is a programming error.
  if (radius !== undefined && near === undefined) throw new Error('radius without near');
  const radiusMeters = radius ?? GEO_RADIUS_DEFAULT_M;
  if (near !== undefined) {
    named.push({ from: 'near', clause: { geo_distance: { distance: `${radiusMeters}m`, location: near } } });
  }
  return { named, must, near, radiusMeters };
}

/**
 * The clauses of the internal filters (search-filters.ts, `InternalFilters`), in canonical form: words of
 * the name (`match_bool_prefix`, which analyzes text and parses no syntax), a substring of the display
 * name (`wildcard` with the text's own `*`, `?` and `\\` escaped, so they are literal), an upper bound
 * of `updatedAt`, any of several specialty codes, an exact name (`term` on the NFC keyword, either of two
 * with the legal name), a prefix of the postal code's key (`prefix`, which interprets no syntax).
 */
function internalClauses(internal: InternalFilters | undefined): SearchFilterClause[] {
  const canonical = canonicalInternalFilters(internal);
  if (canonical === null) return [];
  const clauses: SearchFilterClause[] = [];
  if (canonical.nameWords !== undefined)
    clauses.push({ match_bool_prefix: { nameText: { query: canonical.nameWords, operator: 'and' } } });
  if (canonical.nameContains !== undefined) {
    const literal = canonical.nameContains.replace(/[\\*?]/g, (character) => `\\${character}`);
    clauses.push({ wildcard: { sortName: { value: `*${literal}*` } } });
  }
  if (canonical.updatedBefore !== undefined) {
    const { instant, inclusive } = canonical.updatedBefore;
    clauses.push({ range: { updatedAt: inclusive ? { lte: instant } : { lt: instant } } });
  }
  if (canonical.specialtyAny !== undefined)
    clauses.push({ terms: { specialtyCodes: canonical.specialtyAny } });
  if (canonical.nameExact !== undefined) {
    const { text, orLegalName } = canonical.nameExact;
    clauses.push(
      orLegalName
        ? {
            bool: {
              should: [{ term: { nameExact: text } }, { term: { legalNameExact: text } }],
              minimum_should_match: 1,
            },
          }
        : { term: { nameExact: text } },
    );
  }
  if (canonical.postalCodePrefix !== undefined)
    clauses.push({ prefix: { postalCode: { value: canonical.postalCodePrefix } } });
  if (canonical.addressPrefix !== undefined)
    clauses.push({ prefix: { addressKeys: { value: canonical.addressPrefix } } });
  return clauses;
}

function requireRequestTime(requestTime: Date | undefined): Date {
  if (requestTime === undefined) throw new Error('openNow needs the request time');
  return requestTime;
}

function firstSortKey(sort: SortOrder, near: GeoPoint | undefined): SearchRequestBody['sort'][0] {
  switch (sort) {
    case 'name':
      return { sortName: 'asc' };
    case 'relevance':
      return { _score: 'desc' };
    case 'distance':
      if (near === undefined) throw new Error('sort by distance without near');
      return { _geo_distance: { location: near, order: 'asc', unit: 'm', distance_type: 'arc' } };
    default:
      return assertNever(sort);
  }
}

/** A viewport as Elasticsearch's bounding box (a west edge east of the east one crosses the antimeridian). */
function boundingBoxClause(box: BoundingBox): GeoBoundingBoxFilter {
  return {
    geo_bounding_box: {
      location: {
        top_left: { lat: box.north, lon: box.west },
        bottom_right: { lat: box.south, lon: box.east },
      },
    },
  };
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

/** Served records by place id, whole (record and extras) and with their stream versions (`_version`). */
export type ByIdsRequestBody = {
  size: number;
  query: { bool: { filter: [{ ids: { values: string[] } }, TermFilter] } };
  sort: [{ placeId: 'asc' }];
  _source: SourceFields;
  version: true;
  track_total_hits: false;
};

/**
 * Served records by place ids, in place id order, each with its document version: the stream version
 * the projection wrote it with (external versioning), which the FHIR directory serves as versionId.
 */
export function buildGetByIdsQuery(placeIds: ReadonlyArray<string>): ByIdsRequestBody {
  return {
    size: Math.max(1, placeIds.length),
    query: { bool: { filter: [{ ids: { values: [...placeIds] } }, SERVED] } },
    sort: [{ placeId: 'asc' }],
    _source: ['doctor', 'extras', 'placeId'],
    version: true,
    track_total_hits: false,
  };
}

/**
 * Turns the hits of a `buildSearchRequest(filters, limit, …, order)` query into a DoctorPage. There are
 * `limit + 1` hits exactly when another page follows; the extra one is dropped and the cursor points
 * after the last record returned. With `near` every record has its `distanceMeters`: the sort value when
 * ordered by distance, else the same arc distance worked out from its location. `total` is the search's
 * `hits.total` when it counted.
 */
export function toDoctorPage<Shape extends RecordShape = { fields?: undefined }>(
  hits: ReadonlyArray<SearchHit>,
  limit: number,
  filters: SearchFilters,
  secret: string,
  shape: Shape = {} as Shape,
  order: SearchOrder = {},
  total?: SearchTotal,
): RecordPage<ShapedRecord<Shape>> {
  requirePageSize(limit);
  const sort = sortOrderOf(filters, order.sort);
  const hasMore = hits.length > limit;
  const { near } = filters;
  const results = hits.slice(0, limit).map((hit) => {
    // We always request _source; its absence means the index or request is broken, not the client.
    if (hit._source === undefined) throw new Error('search hit without _source');
    const { doctor, extras, sortName, placeId } = hit._source;
    // Neither shape has a `distanceMeters` of its own: a search record may add it.
    const record = shapeRecord(doctor, extras, shape) as ShapedRecord<Shape> & { distanceMeters?: number };
    const first = sort === 'name' ? sortName : hit.sort?.[0];
    if (sort !== 'name' && typeof first !== 'number')
      throw new Error(`search hit without a ${sort} sort value`);
    const after = [first, placeId] as SortValues;
    if (near === undefined) return { record, after };
    // The exact sort value goes into the cursor; the record shows the distance in whole metres.
    const distance = sort === 'distance' ? first : distanceTo(near, doctor);
    return { record: { ...record, distanceMeters: toDistanceMeters(distance) }, after };
  });
  const last = results[results.length - 1];
  const boundSort = boundSortOrder(filters, order.sort);
  const nextCursor =
    hasMore && last !== undefined
      ? encodeCursor(
          { after: last.after, filters, ...(boundSort === undefined ? {} : { sort: boundSort }) },
          secret,
        )
      : null;
  return {
    doctors: results.map((result) => result.record),
    page: {
      count: results.length,
      hasMore,
      nextCursor,
      ...(total === undefined ? {} : { total: total.value, totalExact: total.relation === 'eq' }),
    },
  };
}

/** A record's arc distance from `near`; every record a `near` search returns has a location. */
function distanceTo(near: GeoPoint, doctor: Doctor): number {
  if (doctor.location === null) throw new Error('near search hit without a location');
  return arcDistanceMeters(near, { lat: doctor.location.latitude, lon: doctor.location.longitude });
}

function isBoundingBox(value: unknown): value is BoundingBox {
  return typeof value === 'object' && value !== null && 'west' in value && 'north' in value;
}

function isGeoPoint(value: unknown): value is GeoPoint {
  return typeof value === 'object' && value !== null && 'lat' in value && 'lon' in value;
}

/** The filtered query of a search body, inside its distance decay or not: what holds the filter clauses. */
export function filteredQueryOf(body: SearchRequestBody): FilteredQuery {
  return 'function_score' in body.query ? body.query.function_score.query : body.query;
}
