import { splitIntoBatches } from './batches.js';
import { syncMirror, type MirrorOptions, type MirrorResult } from './mirror.js';
import {
  DEFAULT_RETRY,
  createTransport,
  sleep,
  type RequestOptions,
  type RetryOptions,
} from './transport.js';
import type { EtagCacheOptions } from './etag-cache.js';
import { buildUrl, pathSegment, type QueryValue } from './url.js';
import type {
  BatchOf,
  ChangesPage,
  ChangesParams,
  CitiesParams,
  City,
  CityList,
  Fields,
  Key,
  RecordOf,
  RecordOptions,
  SearchPageOf,
  SearchParams,
  SearchRecordOf,
  Specialty,
  SpecialtiesParams,
  SpecialtyList,
  SuggestParams,
  Suggestion,
  SuggestionList,
} from './types.js';

export type DirectoryClientOptions = {
  /** Where the API is served, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /**
   * The key's secret (`dk_live_…`, or `dk_test_…` to read the sandbox's sample data), sent as `X-API-Key`;
   * never in a URL, never in an error message.
   */
  apiKey: string;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Retries after the first attempt on 429, 503 and network failures (default 3), or finer options. */
  retries?: number | Partial<RetryOptions>;
  /** Your product token, sent before the client's own in `User-Agent` (e.g. `acme-sync/2.1`). */
  userAgent?: string;
  /** Bounds of the revalidation cache, or `false` for none (default 256 URLs, 8 Mi characters of bodies). */
  etagCache?: EtagCacheOptions | false;
};

export type DirectoryClient = ReturnType<typeof createDirectoryClient>;

const fieldsParam = (fields: Fields | undefined): QueryValue => (fields === '*' ? '*' : fields);

/** Everything but the request options: what goes into the URL. */
function queryOf(params: Record<string, unknown>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === 'signal') continue;
    query[name] = name === 'fields' ? fieldsParam(value as Fields | undefined) : (value as QueryValue);
  }
  return query;
}

const requestOptionsOf = (options: RequestOptions | undefined): RequestOptions =>
  options?.signal ? { signal: options.signal } : {};

/**
 * A client of the directory API. Every call is a GET with the key in `X-API-Key`; 429 and 503 are retried
 * (after `Retry-After` when the API sends it), and every answer is revalidated with its ETag, a `304` being
 * answered from the kept body. Failures throw `DirectoryApiError`.
 */
export function createDirectoryClient(options: DirectoryClientOptions) {
  if (options.apiKey === '') throw new TypeError('createDirectoryClient: apiKey is empty');
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  if (typeof fetchImplementation !== 'function') {
    throw new TypeError('createDirectoryClient: no fetch (pass options.fetch on runtimes without one)');
  }
  const retry: RetryOptions =
    typeof options.retries === 'number'
      ? { ...DEFAULT_RETRY, retries: options.retries }
      : { ...DEFAULT_RETRY, ...options.retries };
  const transport = createTransport({
    apiKey: options.apiKey,
    fetch: (input, init) => fetchImplementation(input, init),
    retry,
    userAgent: options.userAgent,
    etagCache: options.etagCache ?? {},
    random: Math.random,
    sleep,
    now: Date.now,
  });
  const get = <Body>(path: string, query: Record<string, QueryValue>, request?: RequestOptions) =>
    transport.getJson<Body>(buildUrl(options.baseUrl, path, query), requestOptionsOf(request));

  const client = {
    /** The metadata of the key in use (`GET /api/v1/key`): a cheap way to check a key works. */
    async key(request?: RequestOptions): Promise<Key> {
      return (await get<{ key: Key }>('/api/v1/key', {}, request)).key;
    },

    /** One page of a search (`GET /api/v1/doctors`); pass `page.nextCursor` as `cursor` for the next. */
    searchDoctors<P extends SearchParams>(params: P): Promise<SearchPageOf<P>> {
      return get<SearchPageOf<P>>('/api/v1/doctors', queryOf(params), params);
    },

    /** Every page of a search, following `page.nextCursor` from `params.cursor` (or the start). */
    async *searchPages<P extends SearchParams>(params: P): AsyncGenerator<SearchPageOf<P>, void, undefined> {
      let cursor = params.cursor;
      for (;;) {
        const page = await client.searchDoctors({ ...params, cursor });
        yield page;
        if (!page.page.hasMore || page.page.nextCursor === null) return;
        cursor = page.page.nextCursor;
      }
    },

    /** Every record of a search, each once, in the search's order, page after page. */
    async *searchAll<P extends SearchParams>(params: P): AsyncGenerator<SearchRecordOf<P>, void, undefined> {
      for await (const page of client.searchPages(params)) {
        yield* page.doctors as Array<SearchRecordOf<P>>;
      }
    },

    /** One record (`GET /api/v1/doctors/{doctorId}`); a record not served throws a 404 `DirectoryApiError`. */
    async getDoctor<O extends RecordOptions>(id: string, recordOptions?: O): Promise<RecordOf<O>> {
      const { fields, lang } = recordOptions ?? {};
      const body = await get<{ doctor: RecordOf<O> }>(
        `/api/v1/doctors/${pathSegment(id)}`,
        { fields: fieldsParam(fields), lang },
        recordOptions,
      );
      return body.doctor;
    },

    /**
     * Several records by id or profile URL (`GET /api/v1/doctors:batchGet`): the records found, each once, in the order first
     * asked for, and the entries that found none. More than one batch's worth (100 entries, 16,384
     * characters) is sent as several requests, one after the other, and the answers joined.
     */
    async getDoctors<O extends RecordOptions>(
      ids: readonly string[],
      recordOptions?: O,
    ): Promise<BatchOf<O>> {
      const { fields, lang } = recordOptions ?? {};
      const doctors = new Map<string, BatchOf<O>['doctors'][number]>();
      const missing = new Set<string>();
      for (const batch of splitIntoBatches(ids)) {
        const answer = await get<BatchOf<O>>(
          '/api/v1/doctors:batchGet',
          { ids: batch, fields: fieldsParam(fields), lang },
          recordOptions,
        );
        for (const doctor of answer.doctors) if (!doctors.has(doctor.id)) doctors.set(doctor.id, doctor);
        for (const entry of answer.missing) missing.add(entry);
      }
      return { doctors: [...doctors.values()], missing: [...missing] } as BatchOf<O>;
    },

    /** The city slugs of a dataset, most records first (`GET /api/v1/cities`). */
    async cities(params: CitiesParams): Promise<City[]> {
      return (await get<CityList>('/api/v1/cities', queryOf(params), params)).cities;
    },

    /** The specialty codes, labelled (`GET /api/v1/specialties`); with `country`, that dataset's with counts. */
    async specialties(params: SpecialtiesParams = {}): Promise<Specialty[]> {
      return (await get<SpecialtyList>('/api/v1/specialties', queryOf(params), params)).specialties;
    },

    /** Typeahead suggestions for what was typed so far (`GET /api/v1/suggest`). */
    async suggest(params: SuggestParams): Promise<Suggestion[]> {
      return (await get<SuggestionList>('/api/v1/suggest', queryOf(params), params)).suggestions;
    },

    /** One page of the changes feed (`GET /api/v1/changes`); without `since`, the snapshot's first page. */
    changes(params: ChangesParams): Promise<ChangesPage> {
      return get<ChangesPage>('/api/v1/changes', queryOf(params), params);
    },

    /** The pages of the changes feed from `params.since` (or a snapshot) while more are ready now. */
    async *changePages(params: ChangesParams): AsyncGenerator<ChangesPage, void, undefined> {
      let since = params.since;
      for (;;) {
        const page = await client.changes({ ...params, since });
        yield page;
        if (!page.page.hasMore) return;
        since = page.page.nextCursor;
      }
    },

    /**
     * Brings a mirror of one dataset up to date from the changes feed: upserts and deletes applied to `store`
     * in feed order, the cursor saved after each page. Resume by passing the last saved cursor.
     */
    syncMirror(mirror: MirrorOptions): Promise<MirrorResult> {
      return syncMirror(client, mirror);
    },

    /** Forgets every kept answer (the next call of each URL is answered in full). */
    clearCache(): void {
      transport.cache?.clear();
    },
  };
  return client;
}
