// The two sides of the API benchmarks: the directory's API over HTTP, and the identical requests sent
// straight to Elasticsearch (searches, gets) or PostgreSQL (the changes feed); the phases that send a
// workload's tasks through one of them, and their summary (bench:api, bench:scale).
import { request as httpRequest } from 'node:http';
import {
  buildFacetsRequest,
  buildSearchRequest,
  decodeChangesCursor,
  snapshotStart,
  toChangesPage,
  type FacetRequest,
  type InternalFilters,
  type SearchFilters,
  type SearchOrder,
  type SortValues,
} from '@directory/domain';
import { readFeedPage, readSnapshotHorizon } from '@directory/event-store';
import type { FeedTask, Live, Task } from './api-workload.js';
import type { RunningApi } from './bench-api.js';
import { percentile, runConcurrently, type BenchEnvironment, type PhaseRun } from './bench-environment.js';

/** One side of a search comparison: the directory's API, or the same requests straight to the engine. */
export type Client = {
  /** One page (with `facets` when given); resolves to what fetches the next page, or null after the last. */
  search: (
    filters: SearchFilters,
    limit: number,
    after: unknown,
    order: SearchOrder,
    facets?: FacetRequest,
  ) => Promise<unknown>;
  get: (id: string) => Promise<boolean>;
};

/** Every task's requests, `concurrency` at a time, each one's latency recorded. */
export function runPhase(client: Client, tasks: Task[], concurrency: number): Promise<PhaseRun> {
  return runConcurrently(tasks, concurrency, async (task, timed) => {
    if (task.kind === 'get') {
      await timed(() => client.get(task.id));
      return;
    }
    let after: unknown = undefined;
    for (let page = 0; page < task.pages; page += 1) {
      after = await timed(() =>
        client.search(task.filters, task.limit, after, { sort: task.sort, count: task.count }, task.facets),
      );
      if (after === null) break;
    }
  });
}

/**
 * A filter value as query-string text: `near` is "lat,lng", `bbox` "minLng,minLat,maxLng,maxLat". The
 * internal filters have no query-string form (the benchmarks set none).
 */
type PublicFilterValue = Exclude<SearchFilters[keyof SearchFilters], InternalFilters>;

function queryValue(value: PublicFilterValue): string {
  if (typeof value !== 'object') return String(value);
  return 'lat' in value
    ? `${value.lat},${value.lon}`
    : `${value.west},${value.south},${value.east},${value.north}`;
}

async function json(response: Response): Promise<unknown> {
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/** Searches and gets through the API over HTTP. */
export function apiSearchClient(api: RunningApi): Client {
  return {
    search: async (filters, limit, after, { sort, count }, facets) => {
      const query = new URLSearchParams({
        ...Object.fromEntries(
          Object.entries(filters)
            .filter(([name]) => name !== 'internal')
            .map(([name, value]) => [name, queryValue(value as PublicFilterValue)]),
        ),
        limit: String(limit),
        ...(sort === undefined ? {} : { sort }),
        ...(count === true ? { count: 'true' } : {}),
        ...(facets === undefined ? {} : { facets: facets.names.join(','), facetLimit: String(facets.limit) }),
      });
      if (typeof after === 'string') query.set('cursor', after);
      const body = (await json(
        await fetch(`${api.base}/doctors?${query.toString()}`, { headers: api.headers }),
      )) as {
        page: { nextCursor: string | null };
        facets?: unknown;
      };
      // A search whose facets were dropped on the way would measure less work than raw does.
      if (facets !== undefined && body.facets === undefined)
        throw new Error('the API answered without facets');
      return body.page.nextCursor;
    },
    get: async (id) => {
      const response = await fetch(`${api.base}/doctors/${encodeURIComponent(id)}`, { headers: api.headers });
      await response.arrayBuffer();
      if (response.status !== 200 && response.status !== 404) throw new Error(`HTTP ${response.status}`);
      return response.status === 200;
    },
  };
}

/**
 * The identical requests the directory sends, straight to Elasticsearch: the bodies come from the
 * domain's builder the API calls (facets included), never written here.
 */
export function rawSearchClient(environment: BenchEnvironment): Client {
  const searchUrl = `${environment.config.ELASTICSEARCH_URL[0]}/${environment.alias}/_search`;
  // A relevance search's shard preference is a URL parameter, not part of the body.
  const post = ({ preference, ...body }: { preference?: string; [key: string]: unknown }) =>
    fetch(
      preference === undefined ? searchUrl : `${searchUrl}?preference=${encodeURIComponent(preference)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    );
  return {
    search: async (filters, limit, after, order, facets) => {
      // The request time, as the API's edge reads it (the openNow facet counts at it). With facets, the
      // directory's two requests side by side: the page, and its facets.
      const requestTime = new Date();
      const body = buildSearchRequest(
        filters,
        limit,
        after as SortValues | undefined,
        requestTime,
        {},
        order,
      );
      const [page] = await Promise.all([
        post(body).then(json),
        facets === undefined
          ? undefined
          : post(buildFacetsRequest(filters, facets, requestTime, order)).then(json),
      ]);
      const result = page as { hits: { hits: Array<{ sort: SortValues }> } };
      const hits = result.hits.hits;
      return hits.length > limit ? (hits[limit - 1]?.sort ?? null) : null;
    },
    get: async (id) => {
      const result = (await json(
        await post({
          size: 1,
          query: { bool: { filter: [{ ids: { values: [id] } }, { term: { served: true } }] } },
          _source: ['doctor'],
          track_total_hits: false,
        }),
      )) as { hits: { hits: unknown[] } };
      return result.hits.hits.length > 0;
    },
  };
}

export type Summary = { rps: number; p50: number; p99: number; count: number };

/** Requests per second and the latency percentiles of one phase. */
export function summarize({ latencies, seconds }: PhaseRun): Summary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    count: latencies.length,
  };
}

/** One read of a dataset's changes feed; resolves to the cursor of the next page. */
export type FeedClient = (country: Live, limit: number, since: string | undefined) => Promise<string>;

/** The changes feed through the API over HTTP. */
export function apiFeedClient(api: RunningApi): FeedClient {
  return async (country, limit, since) => {
    const query = new URLSearchParams({ country, limit: String(limit) });
    if (since !== undefined) query.set('since', since);
    const body = (await json(
      await fetch(`${api.base}/changes?${query.toString()}`, { headers: api.headers }),
    )) as {
      page: { nextCursor: string };
    };
    return body.page.nextCursor;
  };
}

/** The route's reads sent straight to PostgreSQL: a snapshot for a new consumer, then the feed. */
export function storeFeedClient(environment: BenchEnvironment): FeedClient {
  const { db, config } = environment;
  return async (country, limit, since) => {
    const decoded =
      since === undefined ? undefined : decodeChangesCursor(since, country, config.CURSOR_SECRET);
    const from = decoded?.ok ? decoded.value : snapshotStart(await readSnapshotHorizon(db, country));
    const read = await readFeedPage(db, { country, from, limit });
    return toChangesPage(read, limit, country, from, config.CURSOR_SECRET).page.nextCursor;
  };
}

/** Every consumer's pages, `concurrency` at a time, each page's latency recorded. */
export function runFeedPhase(feed: FeedClient, tasks: FeedTask[], concurrency: number): Promise<PhaseRun> {
  return runConcurrently(tasks, concurrency, async (task, timed) => {
    let since: string | undefined;
    for (let page = 0; page < task.pages; page += 1)
      since = await timed(() => feed(task.country, task.limit, since));
  });
}

/** Our export of one dataset over HTTP, each line parsed as a client would; the trailer must say complete. */
export function exportDataset(api: RunningApi, country: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.base}/exports/${country}`, { headers: api.headers }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`export ${country}: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let pending = '';
      let records = 0;
      let trailer: { export?: { complete?: boolean; records?: number } } | undefined;
      res.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const value = JSON.parse(line) as { export?: { complete?: boolean; records?: number } };
          if (value.export === undefined) records += 1;
          else trailer = value;
        }
      });
      res.on('end', () => {
        if (trailer?.export?.complete !== true || trailer.export.records !== records) {
          reject(new Error(`export ${country} did not complete: ${JSON.stringify(trailer)}`));
        } else resolve(records);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
