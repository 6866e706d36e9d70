import { errors as esErrors, type estypes } from '@elastic/elasticsearch';
import { tracingIsOn } from '@directory/observability';
import type { SearchClient } from './client.js';
import {
  buildCitySpellingsRequest,
  buildDatasetCoverageRequest,
  citySpellingsPage,
  cityTableOf,
  toDatasetsPage,
  type CitySpelling,
  type CitySpellingsAggregation,
  type CityTable,
  type CountryCode,
  type DatasetCoverageAggregation,
  type DatasetsPage,
} from '@directory/domain';

/**
 * Reads of what the read alias serves: the query service's searches (bodies built by the domain, plain
 * data, so a cache can key on a request exactly as it is sent), the indexing counts its index watch
 * compares, the count of served documents operators compare with the store, and the version of one
 * document that searches see (the worker's freshness measure).
 */

/** A search of the alias as sent: the alias, the partial-results rule, and the body. */
export type AliasSearchRequest = { index: string; allow_partial_search_results: false } & object;

export type AliasSearchResponse<Source, Aggregations> = estypes.SearchResponse<Source, Aggregations>;

/**
 * A shard that could not answer (a node lost mid-request) fails the search rather than silently
 * shortening a page or turning a served record into a 404.
 */
export function aliasSearchRequest(alias: string, body: object): AliasSearchRequest {
  return { index: alias, allow_partial_search_results: false, ...body };
}

// While tracing is off, skip the client's per-request (no-op) OpenTelemetry spans: measurable CPU on the
// API's hot path (`npm run bench:api`, docs/benchmarks.md). While it is on, each search is a span of its
// own (docs/operations.md, "Traces"). The processes' own measurements (the index watch, reconciliation,
// freshness polls) answer no request and carry no ingest: never traced, so a trace backend does not fill
// with one-span traces every 250 ms.
const UNTRACED_OPTIONS = { openTelemetry: { enabled: false } };
const TRACED_OPTIONS = { openTelemetry: { enabled: true } };

/** The client options of a search of the alias: the client's own span only while tracing is on. */
export function searchOptions(): { openTelemetry: { enabled: boolean } } {
  return tracingIsOn() ? TRACED_OPTIONS : UNTRACED_OPTIONS;
}

/**
 * One search of the alias. `deadlineMs` bounds it whole: the client's timeout bounds each attempt, and
 * over several nodes a timed-out attempt is tried on the next, so a cluster that hangs altogether would
 * otherwise cost one timeout per node. `attemptTimeoutMs` replaces the client's timeout per attempt, for
 * the few reads no request waits on whole (the typeahead's city tables).
 */
export function searchAlias<Source, Aggregations>(
  client: SearchClient,
  request: AliasSearchRequest,
  deadlineMs?: number,
  attemptTimeoutMs?: number,
): Promise<AliasSearchResponse<Source, Aggregations>> {
  const options = {
    ...searchOptions(),
    ...(deadlineMs === undefined ? {} : { signal: AbortSignal.timeout(deadlineMs) }),
    ...(attemptTimeoutMs === undefined ? {} : { requestTimeout: attemptTimeoutMs }),
  };
  return client.search<Source, Aggregations>(request, options);
}

/** The parameters a search takes in its URL, which a multi-search takes in each search's header line. */
const HEADER_PARAMETERS: ReadonlySet<string> = new Set<keyof estypes.MsearchMultisearchHeader>([
  'allow_no_indices',
  'allow_partial_search_results',
  'ccs_minimize_roundtrips',
  'expand_wildcards',
  'ignore_throttled',
  'ignore_unavailable',
  'index',
  'preference',
  'request_cache',
  'routing',
  'search_type',
]);

/** A search as a multi-search's two lines: its header (the URL's parameters) and its body. */
function multiSearchPair(request: AliasSearchRequest): [object, object] {
  const header: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (HEADER_PARAMETERS.has(key)) header[key] = value;
    else body[key] = value;
  }
  return [header, body];
}

/** One search of a multi-search: its answer, or the error that search alone would have thrown. */
export type AliasSearchOutcome =
  { ok: true; response: AliasSearchResponse<unknown, unknown> } | { ok: false; error: Error };

/**
 * Several searches of the alias in one round trip (`_msearch`): the API sends, and Elasticsearch parses,
 * one request where separate searches cost one each. Each search still answers or fails on its own: a
 * failed one is the ResponseError its own search would have thrown (same status and body, so
 * `isIndexNotFound` reads it alike), beside the others' answers. `deadlineMs` bounds the round trip whole,
 * as it bounds one search; a failure of the round trip itself (no node, the deadline, a body Elasticsearch
 * cannot parse, which fails every search of the request) throws.
 */
export async function multiSearchAlias(
  client: SearchClient,
  requests: ReadonlyArray<AliasSearchRequest>,
  deadlineMs?: number,
): Promise<AliasSearchOutcome[]> {
  const searches = requests.flatMap(multiSearchPair);
  const options = {
    ...searchOptions(),
    ...(deadlineMs === undefined ? {} : { signal: AbortSignal.timeout(deadlineMs) }),
    meta: true as const,
  };
  const result = await client.msearch<unknown, unknown>({ searches }, options);
  const items = result.body.responses;
  if (items.length !== requests.length)
    throw new Error(`_msearch answered ${items.length} searches of ${requests.length}`);
  return items.map((item): AliasSearchOutcome => {
    if ('error' in item) {
      const error = new esErrors.ResponseError({ ...result, body: item, statusCode: item.status });
      return { ok: false, error };
    }
    return { ok: true, response: item };
  });
}

/** No index behind the alias (a fresh deployment): a state, not an outage. */
export function isIndexNotFound(error: unknown): boolean {
  return (
    error instanceof esErrors.ResponseError &&
    error.statusCode === 404 &&
    (error.body as { error?: { type?: string } } | undefined)?.error?.type === 'index_not_found_exception'
  );
}

/** The part of an indices-stats answer that moves with the documents: index names, uuids, write counts. */
export type IndexingStats = {
  indices?: Record<
    string,
    { uuid?: string; primaries?: { indexing?: { index_total?: number; delete_total?: number } } }
  >;
};

const INDEXING_STATS_FILTER = [
  'indices.*.uuid',
  'indices.*.primaries.indexing.index_total',
  'indices.*.primaries.indexing.delete_total',
];

/** The alias's concrete indices with their primaries' write counts; one attempt, within `timeoutMs`. */
export function readIndexingStats(
  client: SearchClient,
  alias: string,
  timeoutMs: number,
): Promise<IndexingStats> {
  return client.indices.stats(
    { index: alias, metric: 'indexing', filter_path: INDEXING_STATS_FILTER },
    { requestTimeout: timeoutMs, maxRetries: 0, ...UNTRACED_OPTIONS },
  );
}

/** Served documents (tombstones excluded) behind `alias`. */
export async function countServedDocuments(client: SearchClient, alias: string): Promise<number> {
  const response = await client.count({ index: alias, query: { term: { served: true } } }, UNTRACED_OPTIONS);
  return response.count;
}

/**
 * The version of a place's document that searches of `alias` see now, or undefined when they do not
 * find it: a search, unlike a GET, sees only what a refresh has made visible.
 */
export async function searchableVersionOf(
  client: SearchClient,
  alias: string,
  placeId: string,
): Promise<number | undefined> {
  const response = await client.search(
    {
      index: alias,
      query: { ids: { values: [placeId] } },
      version: true,
      _source: false,
      size: 1,
    },
    UNTRACED_OPTIONS,
  );
  return response.hits.hits[0]?._version;
}

/**
 * Each dataset's served documents and how many a crawl observed in the window ending at `asOf`
 * (dataset-coverage.ts): the worker's coverage metric and the status command. No index yet lists nothing.
 */
export async function readDatasetCoverage(
  client: SearchClient,
  alias: string,
  asOf: Date,
): Promise<DatasetsPage> {
  try {
    const response = await client.search<unknown, DatasetCoverageAggregation>(
      aliasSearchRequest(alias, buildDatasetCoverageRequest({}, asOf)),
      UNTRACED_OPTIONS,
    );
    return toDatasetsPage(response.aggregations, asOf);
  } catch (error) {
    if (isIndexNotFound(error)) return toDatasetsPage(undefined, asOf);
    throw error;
  }
}

/**
 * The longest one page of a city table may take: far past a search's timeout, so that a cold read of a
 * large dataset on a loaded cluster still completes (the caller decides how long anyone waits for it).
 */
const CITY_TABLE_PAGE_TIMEOUT_MS = 30_000;

/**
 * A dataset's city table for the typeahead (city-table.ts): every spelling of its cities with its served
 * records, page by page, each within CITY_TABLE_PAGE_TIMEOUT_MS. No index yet: an empty table.
 */
export async function readCityTable(
  client: SearchClient,
  alias: string,
  country: CountryCode,
): Promise<CityTable> {
  const spellings: CitySpelling[] = [];
  let after: Parameters<typeof buildCitySpellingsRequest>[1];
  try {
    do {
      const request = aliasSearchRequest(alias, buildCitySpellingsRequest(country, after));
      const response = await searchAlias<unknown, CitySpellingsAggregation>(
        client,
        request,
        CITY_TABLE_PAGE_TIMEOUT_MS,
        CITY_TABLE_PAGE_TIMEOUT_MS,
      );
      const page = citySpellingsPage(response.aggregations);
      spellings.push(...page.spellings);
      after = page.after;
    } while (after !== undefined);
  } catch (error) {
    if (isIndexNotFound(error)) return cityTableOf([]);
    throw error;
  }
  return cityTableOf(spellings);
}
