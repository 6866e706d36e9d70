// The typeahead's two sides, shared by `bench:suggest` and `bench:scale`: `GET /api/v1/suggest` through
// the API, and the route's own Elasticsearch requests sent straight to the index (in one multi-search, as
// the route sends them, without its cache; the cities from the same in-memory table, read once a dataset).
import {
  buildSpecialtyCountsRequest,
  buildSuggestDoctorsRequests,
  matchingSpecialtyCodes,
  suggestCities,
  type CityTable,
  type CountryCode,
  type SuggestParams,
} from '@directory/domain';
import { aliasSearchRequest, multiSearchAlias, readCityTable } from '@directory/search-index';
import type { RunningApi } from './bench-api.js';
import { runConcurrently, type BenchEnvironment, type PhaseRun } from './bench-environment.js';
import type { SuggestSequence } from './suggest-workload.js';

export type SuggestClient = (country: CountryCode, q: string) => Promise<void>;

export function apiSuggestClient(api: RunningApi): SuggestClient {
  return async (country, q) => {
    const query = new URLSearchParams({ country, q });
    const response = await fetch(`${api.base}/suggest?${query.toString()}`, { headers: api.headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
    await response.arrayBuffer();
  };
}

/** Elasticsearch's own time (`took`, ms) of a keystroke's doctors requests (the slower of the two). */
export type SuggestTook = (q: string, tookMs: number) => void;

/** The requests the route makes, sent straight to Elasticsearch (no hot-query cache), together as it does. */
export function rawSuggestClient(environment: BenchEnvironment, onTook?: SuggestTook): SuggestClient {
  const { client, alias } = environment;
  const cityTables = new Map<CountryCode, Promise<CityTable>>();
  const cityTable = (country: CountryCode) => {
    const kept = cityTables.get(country) ?? readCityTable(client, alias, country);
    cityTables.set(country, kept);
    return kept;
  };
  return async (country, q) => {
    const params: SuggestParams = { country, q: q.trim(), limit: 8, lang: 'en' };
    const specialtiesMatch = matchingSpecialtyCodes(params.q).length > 0;
    const doctors = buildSuggestDoctorsRequests(params);
    const bodies: object[] = [doctors.starting, doctors.others];
    if (specialtiesMatch) bodies.push(buildSpecialtyCountsRequest(country));
    const [outcomes, table] = await Promise.all([
      multiSearchAlias(
        client,
        bodies.map((body) => aliasSearchRequest(alias, body)),
      ),
      cityTable(country),
    ]);
    // The route's match in memory, so its CPU counts on this side too.
    suggestCities(table, params);
    const took = outcomes.map((outcome) => {
      if (!outcome.ok) throw outcome.error;
      return outcome.response.took;
    });
    // The doctors requests run side by side: the keystroke waits for the slower.
    onTook?.(params.q, Math.max(took[0] ?? 0, took[1] ?? 0));
  };
}

/** `concurrency` users, each typing whole sequences, one keystroke after the answer to the last. */
export function runSuggestPhase(
  client: SuggestClient,
  sequences: ReadonlyArray<SuggestSequence>,
  concurrency: number,
): Promise<PhaseRun> {
  return runConcurrently([...sequences], concurrency, async ({ country, keystrokes }, timed) => {
    for (const q of keystrokes) await timed(() => client(country, q));
  });
}
