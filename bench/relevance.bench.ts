// `npm run bench:relevance [-- --places 20000 --seed 1 --queries 50 --concurrency 4 --json --details FILE --ours-sort relevance]`: search
// quality, not speed. Generated places (the sample generator, folded and projected as the worker does) are
// indexed; a labelled query set is drawn from their own fields (relevance-queries.ts); every query goes
// through three systems over the same index: ours (the API with `sort=relevance`), the 1.2 literal search
// (the API without `sort`: every word required, name order) and a plain Elasticsearch `multi_match` with
// `fuzziness: AUTO` over the index's text fields. Prints recall@10 and NDCG@10 by system, query class and
// dataset (relevance-metrics.ts), and the goal lines. A system that answers 400 (a `sort` the API does not
// know yet) is reported unavailable with the API's reason, not as a failure. Also prints each system's
// zero-result rate over the workload, and how often suggest and q find a large city by another of its
// names (relevance-place-names.ts). The last stdout line is JSON (overall, one-typo and run-together
// figures, the zero-result rate, the goals; with `--json` every class and dataset too); `--details FILE`
// writes every query's answer as graded, one JSON line per query and system.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { foldText, LIVE_COUNTRY_CODES, type SearchDocument } from '@directory/domain';
import { ensureDoctorsIndex, writeProjections } from '@directory/search-index';
import type { RunningProcess } from '@directory/testing';
import { startApi, type RunningApi } from './bench-api.js';
import { createBenchEnvironment, log, type BenchEnvironment } from './bench-environment.js';
import {
  CUTOFF,
  checkCoverageGoals,
  checkGoals,
  isTypoClass,
  meanOf,
  ndcgAt,
  recallAt,
  zeroResultRate,
  type MeanScore,
  type QueryScore,
} from './relevance-metrics.js';
import {
  PLACE_NAME_CITIES,
  SUGGEST_CUTOFF,
  placeNameQueries,
  placeNameRates,
  type PlaceNameQuery,
  type PlaceNameResult,
} from './relevance-place-names.js';
import {
  QUERY_CLASSES,
  buildQuerySet,
  judgedPlace,
  type JudgedPlace,
  type LabelledQuery,
} from './relevance-queries.js';
import { generateServedDocuments } from './served-records.js';

type Options = {
  places: number;
  seed: number;
  queries: number;
  concurrency: number;
  json: boolean;
  /** A file to write every query's answer and scores to, one JSON line each (for tuning). */
  details: string | undefined;
  /** The `sort` ours sends: `relevance` unless another order is to be scored in its place. */
  oursSort: string;
};

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      places: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '1' },
      queries: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '4' },
      json: { type: 'boolean', default: false },
      details: { type: 'string' },
      'ours-sort': { type: 'string', default: 'relevance' },
    },
  });
  const options = {
    places: Number(values.places),
    seed: Number(values.seed),
    queries: Number(values.queries),
    concurrency: Number(values.concurrency),
    json: values.json,
    details: values.details,
    oursSort: values['ours-sort'],
  };
  for (const name of ['places', 'queries', 'concurrency'] as const) {
    if (!Number.isInteger(options[name]) || options[name] <= 0)
      throw new Error(`--${name} must be a positive integer`);
  }
  if (!Number.isSafeInteger(options.seed)) throw new Error('--seed must be a whole number');
  return options;
}

/** Served places of the live datasets from the generator, as the worker would project them. */
async function indexDocuments(
  environment: BenchEnvironment,
  documents: ReadonlyArray<SearchDocument>,
): Promise<void> {
  const { client, alias } = environment;
  await ensureDoctorsIndex(client, alias);
  await client.indices.putSettings({ index: alias, settings: { refresh_interval: '-1' } });
  for (let start = 0; start < documents.length; start += 2_000) {
    const projections = documents
      .slice(start, start + 2_000)
      .map((source) => ({ placeId: source.placeId, version: 1, source }));
    const result = await writeProjections(client, alias, projections);
    if (result.refused.length > 0) throw new Error(`index refused ${result.refused.length} documents`);
  }
  await client.indices.putSettings({ index: alias, settings: { refresh_interval: '1s' } });
  await client.indices.refresh({ index: alias });
}

/** Every `text` field of the index's mapping (multi-fields included), read from the index itself. */
async function textFields(environment: BenchEnvironment): Promise<string[]> {
  const mappings = await environment.client.indices.getMapping({ index: environment.alias });
  const fields = new Set<string>();
  type Property = { type?: string; properties?: Record<string, Property>; fields?: Record<string, Property> };
  const walk = (properties: Record<string, Property> | undefined, prefix: string) => {
    for (const [name, property] of Object.entries(properties ?? {})) {
      const path = `${prefix}${name}`;
      if (property.type === 'text') fields.add(path);
      walk(property.fields, `${path}.`);
      walk(property.properties, `${path}.`);
    }
  };
  for (const { mappings: mapping } of Object.values(mappings)) {
    walk(mapping.properties, '');
  }
  return [...fields].sort();
}

/**
 * One system's ranked place ids for a query; `refused` when it answered 400 (a parameter it does not
 * know), `failed` when it could not answer this query (a 5xx, an Elasticsearch error).
 */
type Answer = { ids: string[] } | { refused: string } | { failed: string };
type System = { name: string; describe: string; search: (query: LabelledQuery) => Promise<Answer> };

function apiSystem(api: RunningApi, name: string, describe: string, extra: Record<string, string>): System {
  return {
    name,
    describe,
    search: async ({ country, text }) => {
      const params = new URLSearchParams({ country, q: text, ...extra, limit: String(CUTOFF) });
      const response = await fetch(`${api.base}/doctors?${params.toString()}`, { headers: api.headers });
      if (response.status === 400) {
        const problem = (await response.json()) as {
          detail?: string;
          errors?: Array<{ parameter: string; reason: string }>;
        };
        const reasons = problem.errors?.map((error) => `${error.parameter}: ${error.reason}`).join('; ');
        return { refused: `400: ${reasons || problem.detail || 'bad request'}` };
      }
      if (!response.ok)
        return { failed: `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}` };
      const body = (await response.json()) as { doctors: Array<{ id: string }> };
      return { ids: body.doctors.map((doctor) => doctor.id) };
    },
  };
}

/**
 * A plain `multi_match` (best fields, any word, fuzziness AUTO) over the served documents of the dataset.
 * The query is folded as the indexed text is (foldText), so accents and case do not count against it.
 */
function multiMatchSystem(environment: BenchEnvironment, fields: string[]): System {
  return {
    name: 'multi_match',
    describe: `Elasticsearch multi_match, fuzziness AUTO, on ${fields.join(', ')}`,
    search: async ({ country, text }) => {
      const result = await environment.client
        .search({
          index: environment.alias,
          size: CUTOFF,
          _source: false,
          track_total_hits: false,
          query: {
            bool: {
              filter: [{ term: { served: true } }, { term: { country } }],
              must: [{ multi_match: { query: foldText(text), fields, fuzziness: 'AUTO' } }],
            },
          },
        })
        .catch((error: unknown) => ({ failed: String(error).slice(0, 300) }));
      if ('failed' in result) return result;
      return { ids: result.hits.hits.map((hit) => hit._id as string) };
    },
  };
}

type SystemRun = {
  scores: QueryScore[];
  /** Why the system could not take the first query: the whole column is unavailable. */
  unavailable?: string;
  /** Queries it could not answer (scored as an empty answer), with why. */
  failures: Array<{ text: string; reason: string }>;
  /** Every query with the grades of what the system answered, in rank order (0: not relevant). */
  details: Array<{ query: LabelledQuery; answered: string[]; recall: number; ndcg: number }>;
  seconds: number;
};

async function runSystem(
  system: System,
  queries: ReadonlyArray<LabelledQuery>,
  concurrency: number,
): Promise<SystemRun> {
  const started = performance.now();
  const first = queries[0];
  if (first !== undefined) {
    const probe = await system.search(first);
    if ('refused' in probe)
      return { scores: [], unavailable: probe.refused, failures: [], details: [], seconds: 0 };
  }
  const scores: QueryScore[] = [];
  const failures: SystemRun['failures'] = [];
  const details: SystemRun['details'] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++] as LabelledQuery;
        const answer = await system.search(query);
        if (!('ids' in answer))
          failures.push({ text: query.text, reason: 'refused' in answer ? answer.refused : answer.failed });
        const ids = 'ids' in answer ? answer.ids : [];
        const recall = recallAt(ids, query.judgments);
        const ndcg = ndcgAt(ids, query.judgments);
        scores.push({
          system: system.name,
          country: query.country,
          queryClass: query.queryClass,
          recall,
          ndcg,
        });
        details.push({ query, answered: ids, recall, ndcg });
      }
    }),
  );
  return { scores, failures, details, seconds: (performance.now() - started) / 1000 };
}

const figure = (mean: MeanScore | null) =>
  mean === null ? '   –      –  ' : `${mean.recall.toFixed(3)}  ${mean.ndcg.toFixed(3)}`;

/** What a table row selects by: a query's or a score's dataset and class. */
type Bucketed = Pick<QueryScore, 'country' | 'queryClass'>;

/** One table: rows by query class and dataset (then every class, then overall), columns by system. */
function printTable(
  systems: ReadonlyArray<System>,
  runs: ReadonlyMap<string, SystemRun>,
  queries: ReadonlyArray<LabelledQuery>,
): void {
  const countries = [...new Set(queries.map((query) => query.country))];
  const scores = [...runs.values()].flatMap((run) => run.scores);
  const header = ['class'.padEnd(38), 'data'.padEnd(4), 'queries'.padStart(7)]
    .concat(systems.map((system) => `${system.name} R@${CUTOFF}  NDCG`.padStart(22)))
    .join('  ');
  log(header);
  const row = (label: string, country: string, belongs: (score: Bucketed) => boolean) => {
    const cells = systems.map((system) => {
      const run = runs.get(system.name);
      if (run?.unavailable !== undefined) return 'unavailable'.padStart(22);
      return figure(meanOf(scores, (score) => score.system === system.name && belongs(score))).padStart(22);
    });
    const count = queries.filter(belongs).length;
    log([label.padEnd(38), country.padEnd(4), String(count).padStart(7), ...cells].join('  '));
  };
  const groups: Array<{ label: string; of: (score: Bucketed) => boolean }> = [
    ...QUERY_CLASSES.map((queryClass) => ({
      label: queryClass,
      of: (score: Bucketed) => score.queryClass === queryClass,
    })),
    { label: 'all without a typo', of: (score) => !isTypoClass(score.queryClass) },
    { label: 'all with one typo', of: (score) => isTypoClass(score.queryClass) },
    { label: 'all', of: () => true },
  ];
  for (const group of groups) {
    for (const country of [...countries, 'all']) {
      const belongs = (score: Bucketed) =>
        group.of(score) && (country === 'all' || score.country === country);
      row(group.label, country, belongs);
    }
  }
}

/** The API's error log lines (pino level ≥ 50), shortened: why a query failed, for whoever tunes search. */
function apiErrors(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) < 50) return [];
      return [`${entry.msg ?? ''} ${entry.err?.message ?? ''}`.trim().slice(0, 400)];
    } catch {
      return [];
    }
  });
}

/** One JSON line per query and system: its text, class, judged places, and each answer's grade, name, city and codes. */
async function writeDetails(
  path: string,
  runs: ReadonlyMap<string, SystemRun>,
  places: ReadonlyMap<string, JudgedPlace>,
): Promise<void> {
  const lines = [...runs].flatMap(([system, run]) =>
    run.details.map(({ query, answered, recall, ndcg }) =>
      JSON.stringify({
        system,
        country: query.country,
        queryClass: query.queryClass,
        text: query.text,
        relevant: query.judgments.size,
        meant: [...query.judgments.values()].filter((grade) => grade === 2).length,
        answered: answered.map((id) => {
          const place = places.get(id);
          return {
            grade: query.judgments.get(id) ?? 0,
            name: place?.name,
            city: place?.city,
            codes: place?.codes,
          };
        }),
        recall,
        ndcg,
      }),
    ),
  );
  await writeFile(path, `${lines.join('\n')}\n`);
  log(`per-query details: ${path}`);
}

/** Each place-name query asked of suggest and of relevance search (relevance-place-names.ts). */
async function askPlaceNames(
  api: RunningApi,
  queries: ReadonlyArray<PlaceNameQuery>,
  documents: ReadonlyArray<SearchDocument>,
  concurrency: number,
): Promise<PlaceNameResult[]> {
  const idsByCity = new Map<string, Set<string>>();
  for (const document of documents) {
    const key = `${document.country}:${document.citySlug}`;
    idsByCity.set(key, (idsByCity.get(key) ?? new Set()).add(document.placeId));
  }
  const get = async <Body>(path: string, params: Record<string, string>) => {
    const response = await fetch(`${api.base}${path}?${new URLSearchParams(params).toString()}`, {
      headers: api.headers,
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return (await response.json()) as Body;
  };
  const results: PlaceNameResult[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++] as PlaceNameQuery;
        const { country, text } = query;
        const suggested = await get<{ suggestions: Array<{ type: string; citySlug?: string }> }>('/suggest', {
          country,
          q: text,
          limit: String(SUGGEST_CUTOFF),
        });
        const found = await get<{ doctors: Array<{ id: string }> }>('/doctors', {
          country,
          q: text,
          sort: 'relevance',
          limit: String(CUTOFF),
        });
        const cityIds = idsByCity.get(`${country}:${query.citySlug}`) ?? new Set<string>();
        results.push({
          country,
          suggestFound: suggested.suggestions
            .slice(0, SUGGEST_CUTOFF)
            .some(
              (suggestion) => suggestion.type === 'city' && query.slugs.includes(suggestion.citySlug ?? ''),
            ),
          searchFound: found.doctors.some((doctor) => cityIds.has(doctor.id)),
        });
      }
    }),
  );
  return results;
}

function describeRun(run: SystemRun): string {
  if (run.unavailable !== undefined) return `unavailable (${run.unavailable})`;
  const failed = run.failures.length > 0 ? `, ${run.failures.length} failed (scored as no answer)` : '';
  return `${run.scores.length} queries in ${run.seconds.toFixed(1)} s${failed}`;
}

const options = parseOptions();
const environment = await createBenchEnvironment('relevance');
let apiProcess: RunningProcess | undefined;
try {
  const started = performance.now();
  log(`seed ${options.seed}; generating ${options.places} served places of ${LIVE_COUNTRY_CODES.join(', ')}`);
  const documents = generateServedDocuments(options.places, options.seed, environment.config.SITE_ORIGIN);
  log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await indexDocuments(environment, documents);
  const places = documents.map(judgedPlace);
  const placesById = new Map(places.map((place) => [place.id, place]));
  const queries = buildQuerySet(places, options.seed, options.queries);
  const countries = [...new Set(queries.map((query) => query.country))];
  log(
    `indexed ${documents.length} places at ${((performance.now() - started) / 1000).toFixed(1)} s; ${queries.length} queries (${options.queries} per class and dataset wanted)`,
  );
  const api = await startApi(environment);
  apiProcess = api.process;
  const fields = await textFields(environment);
  const systems: System[] = [
    apiSystem(api, 'ours', `the API, sort=${options.oursSort}`, { sort: options.oursSort }),
    apiSystem(api, '1.2-literal', 'the API without sort: every word required, name order', {}),
    multiMatchSystem(environment, fields),
  ];
  const runs = new Map<string, SystemRun>();
  for (const system of systems) {
    const run = await runSystem(system, queries, options.concurrency);
    runs.set(system.name, run);
    log(`${system.name} (${system.describe}): ${describeRun(run)}`);
    for (const failure of run.failures.slice(0, 3)) log(`  failed "${failure.text}": ${failure.reason}`);
  }
  if (
    systems.some(
      (system) => system.name !== 'multi_match' && (runs.get(system.name)?.failures.length ?? 0) > 0,
    )
  )
    for (const line of apiErrors(api.process.output()).slice(0, 3)) log(`  API log: ${line}`);
  const placeNames = placeNameRates(
    await askPlaceNames(api, placeNameQueries(documents), documents, options.concurrency),
  );
  await api.process.stop('SIGTERM');
  log('');
  log(
    `seed ${options.seed}, ${documents.length} places, ${queries.length} queries; recall@${CUTOFF} and NDCG@${CUTOFF}, means per query`,
  );
  printTable(systems, runs, queries);
  // Over the whole workload: how often a search is a dead end (the API's suggestions are for these).
  const zeroResults = Object.fromEntries(
    systems.map((system) => {
      const run = runs.get(system.name);
      const rate =
        run?.unavailable === undefined
          ? zeroResultRate(run?.details.map((d) => d.answered.length) ?? [])
          : null;
      return [system.name, rate];
    }),
  );
  log(
    `zero-result rate: ${systems.map((system) => `${system.name} ${zeroResults[system.name]?.toFixed(3) ?? '–'}`).join(', ')}`,
  );
  log('');
  log(
    `other names of the ${PLACE_NAME_CITIES} largest cities per dataset: found in suggest's first ${SUGGEST_CUTOFF}, in q's (sort=relevance) first ${CUTOFF}`,
  );
  for (const rate of placeNames) {
    log(
      `  ${rate.country.padEnd(4)} ${String(rate.queries).padStart(5)} names  suggest ${rate.suggest.toFixed(3)}  q ${rate.search.toFixed(3)}`,
    );
  }
  const scores = [...runs.values()].flatMap((run) => run.scores);
  const allPlaceNames = placeNames.find((rate) => rate.country === 'all');
  const goals = [
    ...checkGoals(scores, 'ours', 'multi_match'),
    ...checkCoverageGoals(allPlaceNames ?? null, zeroResults.ours ?? null),
  ];
  log('');
  for (const goal of goals) {
    const verdict = goal.met === null ? 'unavailable' : goal.met ? 'met' : 'NOT met';
    log(`goal: ${goal.goal}: ${goal.value === null ? '–' : goal.value.toFixed(3)} (${verdict})`);
  }
  if (options.details !== undefined) await writeDetails(options.details, runs, placesById);
  log(`wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // As every bench, one JSON line on stdout at the end: the overall and one-typo figures, or with
  // --json every class and dataset too.
  const cell = (system: string, belongs: (score: QueryScore) => boolean) =>
    meanOf(scores, (s) => s.system === system && belongs(s));
  console.log(
    JSON.stringify({
      bench: 'relevance',
      seed: options.seed,
      places: documents.length,
      queries: queries.length,
      textFields: fields,
      systems: systems.map((system) => ({
        name: system.name,
        describe: system.describe,
        unavailable: runs.get(system.name)?.unavailable ?? null,
        failed: runs.get(system.name)?.failures.length ?? 0,
        overall: cell(system.name, () => true),
        oneTypo: cell(system.name, (s) => isTypoClass(s.queryClass)),
        runTogether: cell(system.name, (s) => s.queryClass === 'run-together'),
        zeroResultRate: zeroResults[system.name] ?? null,
        byClass: !options.json
          ? undefined
          : Object.fromEntries(
              QUERY_CLASSES.map((queryClass) => [
                queryClass,
                {
                  all: cell(system.name, (s) => s.queryClass === queryClass),
                  ...Object.fromEntries(
                    countries.map((country) => [
                      country,
                      cell(system.name, (s) => s.queryClass === queryClass && s.country === country),
                    ]),
                  ),
                },
              ]),
            ),
      })),
      placeNames,
      goals,
    }),
  );
} finally {
  await apiProcess?.stop('SIGKILL');
  await environment.cleanup();
}
