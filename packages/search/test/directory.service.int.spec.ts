import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_REFRESH_INTERVAL_MS } from '@directory/config';
import { ensureDoctorsIndex } from '@directory/search-index';
import { createTestSearch, indexPlaces, placeState } from '@directory/testing';
import {
  InvalidCursorError,
  SearchUnavailableError,
  createDirectory,
  createSearchRequestCache,
  watchIndexChanges,
  type SearchCacheOptions,
} from '../src/index.js';

const SITE = 'https://www.doctor-directory.example';
const SECRET = 'directory-test-secret-0123456789abcdef';

describe('directory service (the query code shared by the API and MCP)', () => {
  const search = createTestSearch('directory');
  afterAll(() => search.cleanup());

  it('treats a missing alias (fresh deployment) as an empty directory, not an outage', async () => {
    const directory = createDirectory({
      client: search.client,
      alias: `${search.prefix}_missing`,
      siteOrigin: SITE,
      cursorSecret: SECRET,
    });
    expect(await directory.searchDoctors({ country: 'de', limit: 10 }, new Date())).toEqual({
      doctors: [],
      page: { count: 0, hasMore: false, nextCursor: null },
    });
    expect(await directory.getDoctor('some-id')).toEqual({
      status: 'not-found',
      ref: { placeId: 'some-id' },
    });
    expect(await directory.suggest({ country: 'de', q: 'zahn', limit: 8, lang: 'en' })).toEqual({
      suggestions: [],
    });
  });

  it('raises SearchUnavailableError when Elasticsearch cannot be reached', async () => {
    const dead = new Client({ node: 'http://127.0.0.1:9', requestTimeout: 500, maxRetries: 0 });
    const directory = createDirectory({
      client: dead,
      alias: 'doctors',
      siteOrigin: SITE,
      cursorSecret: SECRET,
    });
    await expect(directory.searchDoctors({ country: 'de', limit: 10 }, new Date())).rejects.toBeInstanceOf(
      SearchUnavailableError,
    );
    await expect(directory.getDoctor('some-id')).rejects.toBeInstanceOf(SearchUnavailableError);
    await expect(
      directory.suggest({ country: 'de', q: 'zahn', limit: 8, lang: 'en' }),
    ).rejects.toBeInstanceOf(SearchUnavailableError);
    // Invalid input is answered without asking the cluster at all.
    expect(await directory.getDoctor('not valid!')).toMatchObject({ status: 'invalid' });
    expect(await directory.getDoctor(`${SITE}/en/about`)).toMatchObject({ status: 'invalid' });
    await expect(
      directory.searchDoctors({ country: 'de', limit: 10, cursor: 'bogus' }, new Date()),
    ).rejects.toBeInstanceOf(InvalidCursorError);
    await dead.close();
  });
});

describe('directory service with the hot-query cache, in front of the real Elasticsearch', () => {
  const search = createTestSearch('directory-cache');
  const alias = `${search.prefix}_doctors`;
  let index = '';
  const TTL = 400;
  const berlin = (id: string, name: string) => placeState({ id, name, country: 'de', citySlug: 'berlin' });

  beforeAll(async () => {
    index = await ensureDoctorsIndex(search.client, alias);
    await indexPlaces(search.client, alias, [berlin('de-a', 'Praxis Adler'), berlin('de-b', 'Praxis Berg')]);
  });
  afterAll(() => search.cleanup());

  const cachedDirectory = (
    options: Partial<SearchCacheOptions> & { alias?: string; client?: Client } = {},
  ) => {
    // Every answer kept: these specs are about what is served from memory, not which answers are
    // admitted (search-request-cache.unit.spec.ts; the API's spec runs the default).
    const cache = createSearchRequestCache({
      maxEntries: 1_000,
      maxBytes: 10_000_000,
      ttlMs: TTL,
      admit: 'every',
      ...options,
    });
    const directory = createDirectory({
      client: options.client ?? search.client,
      alias: options.alias ?? alias,
      siteOrigin: SITE,
      cursorSecret: SECRET,
      cache,
    });
    return { directory, cache };
  };
  /** Searches Elasticsearch has run on the index: its own count, no wrapper around the client. */
  const searchesRun = async () => {
    const stats = await search.client.indices.stats({ index, metric: 'search' });
    return stats.indices?.[index]?.total?.search?.query_total ?? 0;
  };
  const names = (page: { doctors: Array<{ name: string | null }> }) =>
    page.doctors.map((doctor) => doctor.name);

  it('answers a repeated search, get and cities list from memory, exactly as Elasticsearch answered', async () => {
    // A clock that stands still: on a loaded machine the repeats can come more than the TTL after the
    // first requests, which would then rightly be sent again.
    const { directory, cache } = cachedDirectory({ now: () => 0 });
    const before = await searchesRun();
    const page = await directory.searchDoctors({ country: 'de', city: 'berlin', limit: 1 }, new Date());
    const record = await directory.getDoctor('de-a');
    const cities = await directory.listCities({ country: 'de', limit: 10 });
    expect(await searchesRun()).toBe(before + 3);

    expect(await directory.searchDoctors({ country: 'de', city: 'berlin', limit: 1 }, new Date())).toEqual(
      page,
    );
    expect(await directory.getDoctor('de-a')).toEqual(record);
    expect(await directory.listCities({ country: 'de', limit: 10 })).toEqual(cities);
    expect(await searchesRun()).toBe(before + 3);
    expect(cache.stats()).toMatchObject({ hits: 3, misses: 3, entries: 3 });

    // The next page (another search_after), another limit or filter, another record: other requests.
    const second = await directory.searchDoctors(
      {
        country: 'de',
        city: 'berlin',
        limit: 1,
        cursor: page.page.nextCursor ?? '',
      },
      new Date(),
    );
    expect(names(second)).toEqual(['Praxis Berg']);
    await directory.searchDoctors({ country: 'de', city: 'berlin', limit: 2 }, new Date());
    await directory.searchDoctors({ country: 'de', city: 'berlin', limit: 1, verified: true }, new Date());
    expect(await directory.getDoctor('de-b')).toMatchObject({ status: 'found' });
    expect(await searchesRun()).toBe(before + 7);
  });

  it('serves a write made searchable by a refresh once the entry has lived its TTL', async () => {
    // The cache's own clock, moved by hand: a slow write on a busy machine cannot outlive the TTL unseen.
    let clock = 0;
    const { directory } = cachedDirectory({ now: () => clock });
    const params = { country: 'de' as const, q: 'praxis', limit: 10 };
    expect(names(await directory.searchDoctors(params, new Date()))).toEqual(['Praxis Adler', 'Praxis Berg']);
    await indexPlaces(search.client, alias, [berlin('de-c', 'Praxis Claus')]);
    // Refreshed in the index, not yet in the cache: the cached page is at most one TTL old.
    clock = TTL - 1;
    expect(names(await directory.searchDoctors(params, new Date()))).toEqual(['Praxis Adler', 'Praxis Berg']);
    clock = TTL + 1;
    expect(names(await directory.searchDoctors(params, new Date()))).toEqual([
      'Praxis Adler',
      'Praxis Berg',
      'Praxis Claus',
    ]);
  });

  it('sends one request to Elasticsearch for many identical searches arriving together', async () => {
    const { directory, cache } = cachedDirectory();
    const before = await searchesRun();
    const params = { country: 'de' as const, city: 'berlin', limit: 5 };
    const pages = await Promise.all(
      Array.from({ length: 12 }, () => directory.searchDoctors(params, new Date())),
    );
    expect(await searchesRun()).toBe(before + 1);
    for (const page of pages) expect(page).toEqual(pages[0]);
    expect(cache.stats()).toMatchObject({ misses: 1, coalesced: 11, hits: 0 });
  });

  it('keeps no failure: an unreachable cluster fails every waiter, and a missing index is not remembered', async () => {
    const dead = new Client({ node: 'http://127.0.0.1:9', requestTimeout: 500, maxRetries: 0 });
    const unreachable = cachedDirectory({ client: dead });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        unreachable.directory.searchDoctors({ country: 'de', limit: 10 }, new Date()),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome.status === 'rejected' && outcome.reason instanceof SearchUnavailableError).toBe(true);
    }
    expect(unreachable.cache.stats()).toMatchObject({ misses: 1, coalesced: 3, entries: 0 });
    await dead.close();

    // A fresh deployment: no index behind the alias reads as empty, and is asked again next time.
    const lateAlias = `${search.prefix}_late`;
    const late = cachedDirectory({ alias: lateAlias });
    expect(names(await late.directory.searchDoctors({ country: 'de', limit: 10 }, new Date()))).toEqual([]);
    await ensureDoctorsIndex(search.client, lateAlias);
    await indexPlaces(search.client, lateAlias, [berlin('de-late', 'Praxis Spät')]);
    expect(names(await late.directory.searchDoctors({ country: 'de', limit: 10 }, new Date()))).toEqual([
      'Praxis Spät',
    ]);
  });

  it('typeahead: one keystroke is two doctors requests in one round trip, the specialty counts shared with the specialties list, the cities from a table', async () => {
    const { directory, cache } = cachedDirectory({ ttlMs: 60_000 });
    await directory.listSpecialties({ country: 'de', lang: 'en' });
    expect(cache.stats()).toMatchObject({ misses: 1 });
    // What the client sends, as Elasticsearch's endpoints: the keystroke's two searches travel together.
    const paths: string[] = [];
    const recordPath = (
      _error: unknown,
      result: { meta: { request: { params: { path: string } } } } | null,
    ) => {
      if (result !== null) paths.push(result.meta.request.params.path);
    };
    search.client.diagnostic.on('request', recordPath);
    // "Praxis" is no specialty: the counts are not asked for. The city table is read past the cache.
    const { suggestions } = await directory.suggest({ country: 'de', q: 'Praxis a', limit: 8, lang: 'en' });
    search.client.diagnostic.off('request', recordPath);
    expect(suggestions[0]).toEqual({ type: 'doctor', id: 'de-a', name: 'Praxis Adler', city: 'Berlin' });
    expect(cache.stats()).toMatchObject({ misses: 3, hits: 0 });
    expect(paths.filter((path) => path.endsWith('/_msearch'))).toHaveLength(1);
    expect(paths.filter((path) => path.endsWith('/_search'))).toHaveLength(1); // the city table's page
    // Folded alike, so the same requests: answered from memory.
    await directory.suggest({ country: 'de', q: 'PRÄXIS A', limit: 8, lang: 'en' });
    expect(cache.stats()).toMatchObject({ misses: 3, hits: 2 });
    // A specialty's text reads the list's counts from memory.
    await directory.suggest({ country: 'de', q: 'zahn', limit: 8, lang: 'en' });
    expect(cache.stats()).toMatchObject({ misses: 5, hits: 3 });
    // Two requests at once never share a round trip: each page is a search of its own.
    paths.length = 0;
    search.client.diagnostic.on('request', recordPath);
    await Promise.all([
      directory.searchDoctors({ country: 'de', city: 'berlin', limit: 3 }, new Date()),
      directory.searchDoctors({ country: 'de', city: 'berlin', limit: 4 }, new Date()),
    ]);
    search.client.diagnostic.off('request', recordPath);
    expect(paths.map((path) => path.split('/').pop())).toEqual(['_search', '_search']);
  });

  it("typeahead cities: the dataset's table is used as read for the refresh interval, and read again after", async () => {
    const tableAlias = `${search.prefix}_city_table`;
    await ensureDoctorsIndex(search.client, tableAlias);
    await indexPlaces(search.client, tableAlias, [berlin('de-t1', 'Praxis Eins')]);
    const clock = { now: 0 };
    const directory = createDirectory({
      client: search.client,
      alias: tableAlias,
      siteOrigin: SITE,
      cursorSecret: SECRET,
      cityTables: { refreshMs: 1_000, now: () => clock.now },
    });
    const cities = async (q: string) =>
      (await directory.suggest({ country: 'de', q, limit: 8, lang: 'en' })).suggestions.filter(
        (suggestion) => suggestion.type === 'city',
      );
    const berlinCity = { type: 'city', citySlug: 'berlin', name: 'Berlin' };
    expect(await cities('ber')).toEqual([berlinCity]);
    await indexPlaces(search.client, tableAlias, [
      placeState({ id: 'de-t2', name: 'Praxis Zwei', city: 'Bernau', citySlug: 'bernau' }),
      placeState({ id: 'de-t3', name: 'Praxis Drei', city: 'Bernau', citySlug: 'bernau' }),
    ]);
    // Within the interval: the table as read, though the doctors are already found.
    clock.now = 1_000;
    const typed = await directory.suggest({ country: 'de', q: 'praxis d', limit: 8, lang: 'en' });
    expect(typed.suggestions).toEqual([{ type: 'doctor', id: 'de-t3', name: 'Praxis Drei', city: 'Bernau' }]);
    expect(await cities('ber')).toEqual([berlinCity]);
    // Twice the interval with no keystroke: the next one waits for the table to be read again.
    clock.now = 2_001;
    expect(await cities('ber')).toEqual([{ type: 'city', citySlug: 'bernau', name: 'Bernau' }, berlinCity]);
  });

  it('with the index watch: keeps an answer past its TTL while the index is quiet, and drops it once a write is seen', async () => {
    const PROBE = 100;
    const watch = watchIndexChanges({
      client: search.client,
      alias,
      timings: { probeIntervalMs: PROBE, refreshIntervalMs: INDEX_REFRESH_INTERVAL_MS },
    });
    try {
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const until = async (settled: boolean) => {
        for (let waited = 0; watch.state().settled !== settled; waited += 20) {
          expect(waited, `index watch never ${settled ? 'settled' : 'unsettled'}`).toBeLessThan(10_000);
          await sleep(20);
        }
      };
      const { directory, cache } = cachedDirectory({ indexState: watch.state });
      const params = { country: 'de' as const, q: 'praxis', limit: 10 };
      await until(true);
      const before = await searchesRun();
      const first = names(await directory.searchDoctors(params, new Date()));
      await sleep(TTL * 2);
      expect(names(await directory.searchDoctors(params, new Date()))).toEqual(first);
      expect(await searchesRun()).toBe(before + 1);
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });

      // A write (made searchable at once): the probe sees it, and the kept answer goes.
      await indexPlaces(search.client, alias, [berlin('de-w', 'Praxis Wald')]);
      await until(false);
      expect(names(await directory.searchDoctors(params, new Date()))).toEqual([...first, 'Praxis Wald']);
      expect(await searchesRun()).toBe(before + 2);
    } finally {
      watch.close();
    }
  });

  it('never keeps an entry longer than the refresh interval of the indices it reads', async () => {
    const settings = await search.client.indices.getSettings({ index, include_defaults: true });
    const refresh =
      settings[index]?.settings?.index?.refresh_interval ??
      settings[index]?.defaults?.index?.refresh_interval;
    const [, amount = '', unit = ''] = /^(\d+)(ms|s)$/.exec(String(refresh)) ?? [];
    expect(unit, `refresh_interval ${String(refresh)}`).not.toBe('');
    expect(INDEX_REFRESH_INTERVAL_MS).toBeLessThanOrEqual(Number(amount) * (unit === 's' ? 1_000 : 1));
  });
});
