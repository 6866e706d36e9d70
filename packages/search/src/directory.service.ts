import {
  buildCitiesRequest,
  buildCityCountsRequest,
  buildFacetValuesRequest,
  buildFacetsRequest,
  cityFacetValues,
  toFacets,
  toFacetValuesPage,
  type FacetsResponse,
  type FacetValuesPage,
  type FacetValuesParams,
  buildGetByIdQuery,
  buildGetByIdsQuery,
  buildGetByProfileQuery,
  buildSearchRequest,
  buildSpecialtyCountsRequest,
  buildDatasetCoverageRequest,
  toDatasetsPage,
  type DatasetCoverageAggregation,
  type DatasetsPage,
  type DatasetsParams,
  buildSuggestDoctorsRequests,
  suggestCities,
  boundSortOrder,
  decodeCursor,
  matchingSpecialtyCodes,
  filtersOf,
  parseDoctorId,
  parseDoctorIds,
  planBatch,
  shapeRecord,
  toCitiesPage,
  toDoctorBatch,
  toDoctorPage,
  type BatchResponse,
  type DoctorExtras,
  type Doctor,
  type DoctorPage,
  toSpecialtyCountsPage,
  toSuggestPage,
  specialtyVocabularyPage,
  type CitiesAggregation,
  type CitiesPage,
  type CitiesParams,
  type DoctorBatch,
  type DoctorRef,
  type ParameterError,
  type RecordPage,
  type RecordShape,
  type SearchHit,
  type SearchHitSource,
  type SearchOrder,
  type SearchRequest,
  type SearchTotal,
  type ShapedRecord,
  type SortValues,
  type SpecialtiesPage,
  type SpecialtiesParams,
  type SpecialtyCountsAggregation,
  type SuggestHitSource,
  type SuggestPage,
  type SuggestParams,
  buildNearbyCitiesRequest,
  buildRadiusRingsRequest,
  buildSuggestionCountRequest,
  buildTermSuggestRequest,
  citySuggestion,
  correctedQuery,
  needsSuggestions,
  radiusSuggestion,
  type NearbyCitiesAggregation,
  type RadiusRingsAggregation,
  type SearchFilters,
  type SearchSuggestion,
} from '@directory/domain';
import {
  aliasSearchRequest,
  isIndexNotFound,
  multiSearchAlias,
  readCityTable,
  searchAlias,
  type AliasSearchRequest,
  type AliasSearchResponse,
  type SearchClient,
} from '@directory/search-index';
import { createCityTables, type CityTableOptions } from './city-tables.js';
import { createSearchBatcher, type SearchBatcher } from './search-batch.js';
import type { RequestAdmission, SearchRequestCache } from './search-request-cache.js';

export { MAX_DOCTOR_ID_LENGTH } from '@directory/domain';

export type DirectoryOptions = {
  client: SearchClient;
  /** The alias readers use (config ELASTICSEARCH_INDEX); never a concrete index. */
  alias: string;
  siteOrigin: string;
  cursorSecret: string;
  /** The hot-query cache around every request to the cluster; none: every request is sent. */
  cache?: SearchRequestCache;
  /** Bounds each search whole, all its attempts included (config SEARCH_DEADLINE_MS); none: per attempt only. */
  searchDeadlineMs?: number;
  /** How fresh the typeahead's city tables are kept (city-tables.ts); none: read again at every change. */
  cityTables?: CityTableOptions;
};

/** `ref`: what the doctorId names, so a caller can ask where a merged-away record went. */
export type GetDoctorResult<Record> =
  | { status: 'found'; doctor: Record }
  | { status: 'invalid'; reason: string }
  | { status: 'not-found'; ref: DoctorRef };

/** `refs`: what each distinct entry (as sent) names. */
export type GetDoctorsResult<Record> =
  | { status: 'found'; batch: DoctorBatch<Record>; refs: ReadonlyMap<string, DoctorRef> }
  | { status: 'invalid'; errors: ParameterError[] };

/** A served record whole, with the stream version its index document was written with. */
export type VersionedRecord = { doctor: Doctor; extras: DoctorExtras; version: number };
/** A page of whole records (the FHIR directory's search): the records and the API's page object. */
export type VersionedPage = { records: VersionedRecord[]; page: DoctorPage['page'] };

// No shape given: the full record without its extras.
type Plain = { fields?: undefined };

/** Every method answers records shaped as asked (record-shape.ts): the Doctor record unless `fields` is given. */
export type Directory = {
  /**
   * One page of served records in (folded name, id) order. `requestTime` is when the request came in:
   * the instant `openNow` means. Throws InvalidCursorError, SearchUnavailableError.
   */
  searchDoctors<Request extends SearchRequest>(
    request: Request,
    requestTime: Date,
  ): Promise<RecordPage<ShapedRecord<Request>>>;
  /** One served record by place id or canonical profile URL. Throws SearchUnavailableError. */
  getDoctor<Shape extends RecordShape = Plain>(
    doctorId: string,
    shape?: Shape,
  ): Promise<GetDoctorResult<ShapedRecord<Shape>>>;
  /** Served records by ids and profile URLs (doctor-batch.ts). Throws SearchUnavailableError. */
  getDoctors<Shape extends RecordShape = Plain>(
    entries: ReadonlyArray<string>,
    shape?: Shape,
  ): Promise<GetDoctorsResult<ShapedRecord<Shape>>>;
  /**
   * One page of a search as `searchDoctors` answers it (the same filters, order, cursors and count),
   * each record whole and with its stream version. `request` must ask for every field (`fields=*`).
   * Throws InvalidCursorError, SearchUnavailableError.
   */
  searchVersionedRecords(request: SearchRequest, requestTime: Date): Promise<VersionedPage>;
  /** Served records by place id, whole and with their stream versions, in place id order. Throws SearchUnavailableError. */
  getVersionedRecords(placeIds: ReadonlyArray<string>): Promise<VersionedRecord[]>;
  /** The city slugs of a dataset with names and counts. Throws SearchUnavailableError. */
  listCities(params: CitiesParams): Promise<CitiesPage>;
  /**
   * Each dataset's served records and how many a crawl observed in the window ending at `asOf`
   * (dataset-coverage.ts). Throws SearchUnavailableError.
   */
  listDatasets(params: DatasetsParams, asOf: Date): Promise<DatasetsPage>;
  /** The specialty codes with labels; with a country, those of its records, counted. Throws SearchUnavailableError. */
  listSpecialties(params: SpecialtiesParams): Promise<SpecialtiesPage>;
  /** Typeahead: specialties, cities and doctors matching the typed text (suggest.ts). Throws SearchUnavailableError. */
  suggest(params: SuggestParams): Promise<SuggestPage>;
  /** The values of one facet in a dataset, matching a prefix, counted (facet-values.ts). Throws SearchUnavailableError. */
  /** `requestTime`: when the request came in, the instant the openNow facet counts at. */
  listFacetValues(params: FacetValuesParams, requestTime: Date): Promise<FacetValuesPage>;
};

/** Elasticsearch could not answer (down, slow, overloaded): a 503 for the client, details only in logs. */
export class SearchUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the search service is temporarily unavailable', { cause });
    this.name = 'SearchUnavailableError';
  }
}

/** A cursor the caller cannot use with these filters (tampered, foreign, malformed, other filters). */
export class InvalidCursorError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidCursorError';
    this.reason = reason;
  }
}

/**
 * THE query service: one implementation behind every transport (HTTP API, MCP). It only reads the
 * alias; every query filters `served: true`, so tombstones never come back. What to ask (request
 * bodies, page conversion) is the domain's search read model; this is only the I/O around it.
 */
export function createDirectory(options: DirectoryOptions): Directory {
  const { client, alias, siteOrigin, cursorSecret, cache, searchDeadlineMs } = options;
  const cityTables = createCityTables(
    (country) =>
      readCityTable(client, alias, country).catch((error: unknown) => {
        throw new SearchUnavailableError(error);
      }),
    options.cityTables ?? { refreshMs: 0 },
  );

  /**
   * A batch for the searches one call starts side by side: those the cache does not answer share one
   * round trip (search-batch.ts). One a call, so no other request's searches ever join it.
   */
  const searchesTogether = (): Batch =>
    createSearchBatcher({
      one: (request) => searchAlias(client, request, searchDeadlineMs),
      many: (requests) => multiSearchAlias(client, requests, searchDeadlineMs),
    });

  /**
   * One search on the alias; undefined when no index stands behind it yet. Every read of the directory
   * (pages, records, batches, cities, specialties) is one or more of these, so the cache serves them all
   * alike. With `batch`, it is sent with the others the caller starts beside it. `admission`: when the
   * cache keeps the answer (RECORDS for pages of records and records by id; at once for the rest).
   */
  async function search<Aggregations = unknown, Source = SearchHitSource>(
    body: object,
    batch?: Batch,
    admission: RequestAdmission = 'first-miss',
  ) {
    const request = aliasSearchRequest(alias, body);
    const send = (): Promise<AliasSearchResponse<Source, Aggregations>> =>
      batch === undefined
        ? searchAlias<Source, Aggregations>(client, request, searchDeadlineMs)
        : (batch.send(request) as Promise<AliasSearchResponse<Source, Aggregations>>);
    try {
      return await (cache ? cache.answer(request, send, admission) : send());
    } catch (error) {
      // No index behind the alias yet (a fresh deployment): nothing is published, not an outage.
      if (isIndexNotFound(error)) return undefined;
      throw new SearchUnavailableError(error);
    }
  }

  async function searchRecords(body: object): Promise<SearchHit[]> {
    return (await search(body, undefined, RECORDS))?.hits.hits ?? [];
  }

  async function aggregate<Aggregations>(body: object, batch?: Batch): Promise<Aggregations | undefined> {
    return (await search<Aggregations>(body, batch))?.aggregations;
  }

  async function listCities(params: CitiesParams): Promise<CitiesPage> {
    const matching = toCitiesPage(await aggregate<CitiesAggregation>(buildCitiesRequest(params)));
    if (params.q === undefined || matching.cities.length === 0) return matching;
    // q chose the cities by their matching records; count each city whole.
    const slugs = matching.cities.map((city) => city.slug);
    return toCitiesPage(await aggregate<CitiesAggregation>(buildCityCountsRequest(params.country, slugs)));
  }

  /**
   * What an empty first page suggests (search-suggestions.ts): the term suggester, the radius rings and
   * the nearby cities at once, then one count of the corrected q. At most four requests.
   */
  async function suggestionsFor(
    filters: SearchFilters,
    order: SearchOrder,
    requestTime: Date,
  ): Promise<SearchSuggestion[]> {
    const terms = filters.q === undefined ? null : buildTermSuggestRequest(filters.q);
    const rings = buildRadiusRingsRequest(filters, order, requestTime);
    const cities = buildNearbyCitiesRequest(filters, order, requestTime);
    const batch = searchesTogether();
    const [suggested, ringCounts, cityCounts] = await Promise.all([
      terms === null ? undefined : search(terms, batch),
      rings === null ? undefined : aggregate<RadiusRingsAggregation>(rings, batch),
      cities === null ? undefined : aggregate<NearbyCitiesAggregation>(cities, batch),
    ]);
    const corrected = filters.q === undefined ? null : correctedQuery(filters.q, suggested?.suggest);
    let query: SearchSuggestion | null = null;
    if (corrected !== null) {
      const counted = await search(
        buildSuggestionCountRequest(filters, { q: corrected }, order, requestTime),
      );
      const found = totalOf(counted?.hits.total).value;
      if (found > 0) query = { kind: 'query', q: corrected, resultCount: found };
    }
    return [query, radiusSuggestion(ringCounts), citySuggestion(filters, cityCounts)].filter(
      (suggestion): suggestion is SearchSuggestion => suggestion !== null,
    );
  }

  /** Where a page resumes: after its cursor's sort values (checked against the filters and order). */
  function resumeAfter(request: SearchRequest, filters: SearchFilters): SortValues | undefined {
    if (request.cursor === undefined) return undefined;
    const decoded = decodeCursor(
      request.cursor,
      filters,
      cursorSecret,
      boundSortOrder(filters, request.sort),
    );
    if (!decoded.ok) throw new InvalidCursorError(decoded.error);
    return decoded.value;
  }

  return {
    async searchVersionedRecords(request, requestTime) {
      if (request.fields === undefined)
        throw new Error('searchVersionedRecords needs every field (fields=*)');
      const filters = filtersOf(request);
      const order: SearchOrder = { sort: request.sort, count: request.count };
      const after = resumeAfter(request, filters);
      const body = buildSearchRequest(filters, request.limit, after, requestTime, request, order);
      const response = await search({ ...body, version: true }, undefined, RECORDS);
      const hits = response?.hits.hits ?? [];
      const total = request.count === true ? totalOf(response?.hits.total) : undefined;
      const { page } = toDoctorPage(hits, request.limit, filters, cursorSecret, request, order, total);
      return { records: hits.slice(0, request.limit).map(versionedRecordOf), page };
    },

    async getVersionedRecords(placeIds) {
      if (placeIds.length === 0) return [];
      return (await searchRecords(buildGetByIdsQuery(placeIds))).map(versionedRecordOf);
    },

    async searchDoctors(request, requestTime) {
      const filters = filtersOf(request);
      const order: SearchOrder = { sort: request.sort, count: request.count };
      const after = resumeAfter(request, filters);
      // The facets are a request of their own, side by side with the page's: the same for every page
      // of the search, so the hot-query cache answers them after the first (search-query.ts).
      const batch = searchesTogether();
      const [response, facets] = await Promise.all([
        search(
          buildSearchRequest(filters, request.limit, after, requestTime, request, order),
          batch,
          RECORDS,
        ),
        request.facets === undefined
          ? undefined
          : aggregate<FacetsResponse>(buildFacetsRequest(filters, request.facets, requestTime, order), batch),
      ]);
      const hits = response?.hits.hits ?? [];
      const total = request.count === true ? totalOf(response?.hits.total) : undefined;
      const page = toDoctorPage(hits, request.limit, filters, cursorSecret, request, order, total);
      const withFacets =
        request.facets === undefined
          ? page
          : { ...page, facets: toFacets(request.facets, request.country, request.lang, facets) };
      if (request.suggestions !== true) return withFacets;
      const suggestions = needsSuggestions(request, page.doctors.length)
        ? await suggestionsFor(filters, order, requestTime)
        : [];
      return { ...withFacets, suggestions };
    },

    async getDoctor<Shape extends RecordShape>(doctorId: string, shape: Shape = {} as Shape) {
      const parsed = parseDoctorId(doctorId, siteOrigin);
      if (!parsed.ok) return { status: 'invalid', reason: parsed.error };
      const ref = parsed.value;
      const body =
        'placeId' in ref ? buildGetByIdQuery(ref.placeId, shape) : buildGetByProfileQuery(ref.profile, shape);
      const [hit] = await searchRecords(body);
      if (hit?._source === undefined) return { status: 'not-found', ref };
      return { status: 'found', doctor: shapeRecord(hit._source.doctor, hit._source.extras, shape) };
    },

    async getDoctors<Shape extends RecordShape>(entries: ReadonlyArray<string>, shape: Shape = {} as Shape) {
      const parsed = parseDoctorIds(entries, siteOrigin);
      if (!parsed.ok) return { status: 'invalid', errors: parsed.error };
      const plan = planBatch(parsed.value, shape);
      const response = await search<BatchAggregations, BatchSource>(plan.body, undefined, RECORDS);
      const answered: BatchResponse | undefined =
        response === undefined
          ? undefined
          : { hits: response.hits.hits, profileBuckets: response.aggregations?.profiles.buckets ?? [] };
      const refs = new Map(parsed.value.map(({ entry, ref }) => [entry, ref]));
      return { status: 'found', batch: toDoctorBatch(plan, answered, shape), refs };
    },

    listCities,

    async listDatasets(params, asOf) {
      const coverage = await aggregate<DatasetCoverageAggregation>(buildDatasetCoverageRequest(params, asOf));
      return toDatasetsPage(coverage, asOf);
    },

    async listSpecialties({ lang, country }) {
      // The vocabulary itself needs no index; counts are one aggregation over the dataset.
      if (country === undefined) return specialtyVocabularyPage(lang);
      const counts = await aggregate<SpecialtyCountsAggregation>(buildSpecialtyCountsRequest(country));
      return toSpecialtyCountsPage(lang, counts);
    },

    async listFacetValues(params, requestTime) {
      // City values are unbounded: the cities list finds them in the index (facet-values.ts).
      if (params.name === 'city') {
        const { country, q, limit } = params;
        return cityFacetValues(await listCities({ country, limit, ...(q === undefined ? {} : { q }) }));
      }
      const request = buildFacetValuesRequest(params, requestTime);
      return toFacetValuesPage(params, await aggregate<FacetsResponse>(request));
    },

    async suggest(params) {
      const codes = new Set<string>(matchingSpecialtyCodes(params.q));
      const doctors = buildSuggestDoctorsRequests(params);
      // The specialty counts are the specialties list's own request, so the hot-query cache shares them.
      // Doctors (two requests, each cached on its own) beside the dataset's city table.
      const batch = searchesTogether();
      const [starting, others, cityTable, counts] = await Promise.all([
        search<unknown, SuggestHitSource>(doctors.starting, batch),
        search<unknown, SuggestHitSource>(doctors.others, batch),
        cityTables.table(params.country),
        codes.size === 0
          ? undefined
          : aggregate<SpecialtyCountsAggregation>(buildSpecialtyCountsRequest(params.country), batch),
      ]);
      const specialtyCounts = toSpecialtyCountsPage(params.lang, counts).specialties.filter(({ code }) =>
        codes.has(code),
      );
      return toSuggestPage(
        params,
        {
          doctorHits: { starting: starting?.hits.hits ?? [], others: others?.hits.hits ?? [] },
          cities: cityTable === undefined ? [] : suggestCities(cityTable, params),
        },
        specialtyCounts.map(({ code, count }) => ({ code, count: count ?? 0 })),
      );
    },
  };
}

/**
 * How the hot-query cache admits pages of records and records by id: at their request's second miss. Most
 * map viewports, radius searches and ids are asked once, and their answers are the large ones; keeping
 * each cost the API about 40 % more CPU on a miss. Aggregations and a keystroke's short lists are
 * small and asked by many: kept at once (docs/operations.md, "Hot-query cache").
 */
const RECORDS: RequestAdmission = 'second-miss';

/** A hit of a request that asked for the whole record and its version (`version: true`). */
function versionedRecordOf(hit: SearchHit & { _version?: number }): VersionedRecord {
  const source = hit._source;
  if (source?.extras === undefined || typeof hit._version !== 'number')
    throw new Error('versioned hit without its record, extras or version');
  return { doctor: source.doctor, extras: source.extras, version: hit._version };
}

/** `hits.total` of a counted search; no index behind the alias yet counts none. */
function totalOf(total: number | { value: number; relation: 'eq' | 'gte' } | undefined): SearchTotal {
  if (total === undefined) return { value: 0, relation: 'eq' };
  return typeof total === 'number' ? { value: total, relation: 'eq' } : total;
}

type BatchSource = BatchResponse['hits'][number]['_source'] & object;
type BatchAggregations = { profiles: { buckets: BatchResponse['profileBuckets'] } };

/** A batch of one call's searches (search-batch.ts). */
type Batch = SearchBatcher<AliasSearchRequest, AliasSearchResponse<unknown, unknown>>;
