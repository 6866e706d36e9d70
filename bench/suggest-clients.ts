// The typeahead's two sides, shared by `bench:suggest` and `bench:scale`: `GET /api/v1/suggest` through
// the API, and the route's own Elasticsearch requests sent straight to the index (side by side, as the
// route sends them, without its cache; the city table read once per dataset, as any client of it would
// keep it, and matched in memory as the route does).
import {
  buildCityTableRequest,
  buildSpecialtyCountsRequest,
  buildSuggestDoctorsRequests,
  cityTablePage,
  matchCities,
  matchingSpecialtyCodes,
  prepareCitySpellings,
  suggestedDoctorHits,
  type CityTableAggregation,
  type CountryCode,
  type PreparedSpelling,
  type SuggestDoctorsRequestBody,
  type SuggestHit,
  type SuggestParams,
} from '@directory/domain';
import type { Client } from '@elastic/elasticsearch';
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

/**
 * Elasticsearch's own time (`took`, ms) of one keystroke's requests: the slowest of the doctors' three
 * (they run side by side), and the city table's pages when a keystroke had to read them.
 */
export type SuggestTook = (request: 'doctors' | 'city table', q: string, tookMs: number) => void;

/** The requests the route makes, sent straight to Elasticsearch (no hot-query cache), side by side as it does. */
export function rawSuggestClient(environment: BenchEnvironment, onTook?: SuggestTook): SuggestClient {
  const { client, alias } = environment;
  const tables = new Map<CountryCode, Promise<PreparedSpelling[]>>();
  const cityTable = (country: CountryCode, q: string) => {
    let table = tables.get(country);
    if (table === undefined) {
      table = readCityTable(client, alias, country, (tookMs) => onTook?.('city table', q, tookMs));
      tables.set(country, table);
    }
    return table;
  };
  return async (country, q) => {
    const params: SuggestParams = { country, q: q.trim(), limit: 8, lang: 'en' };
    const specialtiesMatch = matchingSpecialtyCodes(params.q).length > 0;
    const requests = buildSuggestDoctorsRequests(params);
    const doctors = (body: SuggestDoctorsRequestBody) =>
      client.search<NonNullable<SuggestHit['_source']>>({ index: alias, ...body });
    const [before, starting, after, spellings] = await Promise.all([
      doctors(requests.before),
      doctors(requests.starting),
      doctors(requests.after),
      cityTable(country, params.q),
      specialtiesMatch ? client.search({ index: alias, ...buildSpecialtyCountsRequest(country) }) : undefined,
    ]);
    suggestedDoctorHits(params.q, params.limit, {
      before: before.hits.hits,
      starting: starting.hits.hits,
      after: after.hits.hits,
    });
    matchCities(country, params.q, params.limit, spellings);
    onTook?.('doctors', params.q, Math.max(before.took, starting.took, after.took));
  };
}

async function readCityTable(
  client: Client,
  alias: string,
  country: CountryCode,
  onTook: (tookMs: number) => void,
): Promise<PreparedSpelling[]> {
  const rows: PreparedSpelling[] = [];
  let after: ReturnType<typeof cityTablePage>['next'];
  do {
    const response = await client.search<unknown, CityTableAggregation>({
      index: alias,
      ...buildCityTableRequest(country, after),
    });
    onTook(response.took);
    const page = cityTablePage(response.aggregations);
    rows.push(...prepareCitySpellings(page.rows));
    after = page.next;
  } while (after !== undefined);
  return rows;
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
