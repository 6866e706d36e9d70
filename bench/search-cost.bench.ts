// `npm run bench:search-cost [-- --places 200000 --base 50000 --requests 400 --concurrency 4 --shards 4
// --rounds 3]`:
// what a relevance search costs Elasticsearch itself, in milliseconds of query phase per search (the
// index's own `query_time_in_millis` delta over the searches sent), far less sensitive to a busy machine
// than wall time. Generated served places of the four live datasets (`--base` distinct ones, cloned with
// new ids up to `--places`) go into two indices: one shard (today's), and `--shards` shards routed by
// dataset. The relevance query set of bench:relevance (seed 1) is sent, `--requests` searches a variant
// and round, over a warm-up and `--rounds` rounds: today's query on one shard, on the routed index
// without and with `routing` (a query names one dataset), and cheaper forms of today's query on one shard:
// without its exact-match clauses (a fuzzy term scores an exact match above a corrected one by itself),
// fuzzy over the name only, one fuzzy match over `searchText`. The last line: each variant's median.
import { parseArgs } from 'node:util';
import { buildSearchRequest, type CountryCode, type SearchDocument } from '@directory/domain';
import { createDoctorsIndex } from '@directory/search-index';
import { createBenchEnvironment, log, runConcurrently, type BenchEnvironment } from './bench-environment.js';
import { buildQuerySet, judgedPlace } from './relevance-queries.js';
import { median } from './rounds.js';
import { generateServedDocuments } from './served-records.js';

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '200000' },
    base: { type: 'string', default: '50000' },
    requests: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '4' },
    shards: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
  },
});
const places = Number(values.places);
const base = Number(values.base);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const shards = Number(values.shards);
const rounds = Number(values.rounds);

async function fill(
  environment: BenchEnvironment,
  index: string,
  documents: ReadonlyArray<SearchDocument>,
  routed: boolean,
): Promise<void> {
  const { client } = environment;
  for (let copy = 0; copy * documents.length < places; copy += 1) {
    const batch = documents.slice(0, Math.min(documents.length, places - copy * documents.length));
    for (let start = 0; start < batch.length; start += 2_000) {
      const operations = batch.slice(start, start + 2_000).flatMap((document) => {
        const id = copy === 0 ? document.placeId : `${document.placeId}-c${copy}`;
        return [
          { index: { _index: index, _id: id, ...(routed ? { routing: document.country } : {}) } },
          { ...document, placeId: id },
        ];
      });
      const response = await client.bulk({ operations }, { requestTimeout: LONG_MS });
      if (response.errors) throw new Error('bulk indexing failed');
    }
  }
  await client.indices.refresh({ index });
  await client.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: LONG_MS });
}

type Body = Record<string, unknown>;

/** A bulk or a merge on a busy machine may take minutes: waited for, not a failure. */
const LONG_MS = 1_800_000;

/** Each word's clauses replaced by one fuzzy match over `searchText` (and one prefix for the last word). */
function oneField(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(oneField);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Body).map(([key, inner]): [string, unknown] => {
    if (key === 'dis_max') {
      const queries = (inner as { queries: Body[] }).queries;
      const first = Object.values((queries[0] as { match: Record<string, { query: string }> }).match)[0];
      const word = first?.query ?? '';
      const isLast = queries.some((clause) => clause.prefix !== undefined);
      const fuzzyMatch = { match: { searchText: { query: word, fuzziness: 'AUTO:4,7', prefix_length: 1 } } };
      if (!isLast) return ['bool', { should: [fuzzyMatch] }];
      return ['bool', { should: [fuzzyMatch, { prefix: { searchText: { value: word, boost: 0.6 } } }] }];
    }
    return [key, oneField(inner)];
  });
  return Object.fromEntries(entries);
}

type MatchFields = Record<string, { fuzziness?: string }>;

/** Today's relevance query keeping only the match clauses of its words that `keep` accepts. */
function keepMatches(value: unknown, keep: (match: MatchFields) => boolean): unknown {
  if (Array.isArray(value)) return value.map((inner) => keepMatches(inner, keep));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Body).map(([key, inner]): [string, unknown] => {
    if (key === 'dis_max') {
      const disMax = inner as { queries: Body[]; tie_breaker: number };
      const queries = disMax.queries.filter(
        (clause) => clause.match === undefined || keep(clause.match as MatchFields),
      );
      return [key, { ...disMax, queries }];
    }
    return [key, keepMatches(inner, keep)];
  });
  return Object.fromEntries(entries);
}
const fuzzy = (match: MatchFields) => Object.values(match).every((field) => field.fuzziness !== undefined);

async function queryMillis(environment: BenchEnvironment, index: string): Promise<[number, number]> {
  const stats = await environment.client.indices.stats({ index, metric: 'search' });
  const search = stats._all.primaries?.search;
  return [search?.query_time_in_millis ?? 0, search?.query_total ?? 0];
}

type Variant = { name: string; index: string; routed: boolean; transform: (body: Body) => Body };

const environment = await createBenchEnvironment('search-cost');
const single = `${environment.alias}__one`;
const multi = `${environment.alias}__routed`;
try {
  const { client, config } = environment;
  const documents = generateServedDocuments(base, 1, config.SITE_ORIGIN);
  log(`${documents.length} distinct served places, cloned up to ${places}`);
  const queries = buildQuerySet(documents.map(judgedPlace), 1, 40);
  log(`${queries.length} queries`);
  await createDoctorsIndex(client, single, { refresh_interval: '-1' });
  await createDoctorsIndex(client, multi, { refresh_interval: '-1', number_of_shards: shards });
  let started = performance.now();
  await fill(environment, single, documents, false);
  log(`one shard filled in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  started = performance.now();
  await fill(environment, multi, documents, true);
  log(`${shards} shards filled in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const same = (body: Body) => body;
  const variants: Variant[] = [
    { name: 'today, 1 shard', index: single, routed: false, transform: same },
    { name: `today, ${shards} shards, no routing`, index: multi, routed: false, transform: same },
    { name: `today, ${shards} shards, routing`, index: multi, routed: true, transform: same },
    {
      name: 'no exact clauses, 1 shard',
      index: single,
      routed: false,
      transform: (body) => keepMatches(body, fuzzy) as Body,
    },
    {
      name: 'fuzzy over the name only, 1 shard',
      index: single,
      routed: false,
      transform: (body) => keepMatches(body, (match) => fuzzy(match) && 'nameText' in match) as Body,
    },
    {
      name: 'one fuzzy match over searchText, 1 shard',
      index: single,
      routed: false,
      transform: (body) => oneField(body) as Body,
    },
  ];
  const now = new Date();
  const sent = Array.from({ length: requests }, (_, index) => queries[index % queries.length]!);
  const results = new Map<string, number[]>();
  for (let round = -1; round < rounds; round += 1) {
    for (const variant of variants) {
      const [millisBefore, totalBefore] = await queryMillis(environment, variant.index);
      const started = performance.now();
      const run = await runConcurrently(sent, concurrency, async (query, timed) => {
        const body = variant.transform(
          buildSearchRequest(
            { country: query.country as CountryCode, q: query.text },
            10,
            undefined,
            now,
            {},
            {
              sort: 'relevance',
            },
          ),
        );
        await timed(() =>
          client.search({
            index: variant.index,
            ...(variant.routed ? { routing: query.country } : {}),
            ...body,
          }),
        );
      });
      const wall = (performance.now() - started) / 1000;
      const [millisAfter, totalAfter] = await queryMillis(environment, variant.index);
      const perSearch = (millisAfter - millisBefore) / sent.length;
      if (round >= 0) results.set(variant.name, [...(results.get(variant.name) ?? []), perSearch]);
      log(
        `${round < 0 ? 'warm-up ' : `round ${round + 1} `}${variant.name}: ES ${perSearch.toFixed(2)} ms/search ` +
          `(${totalAfter - totalBefore} shard queries for ${sent.length} searches), wall ${(run.latencies.length / wall).toFixed(0)} req/s`,
      );
    }
  }
  const medians = Object.fromEntries(
    [...results].map(([name, list]) => [name, Number(median(list).toFixed(2))]),
  );
  console.log(JSON.stringify({ bench: 'search-cost', places, es_ms_per_search: medians }));
} finally {
  await environment.client.indices.delete({ index: [single, multi] }, { ignore: [404] });
  await environment.cleanup();
}
