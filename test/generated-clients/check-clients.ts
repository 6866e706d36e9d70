// `npm run check:clients`: generates clients of the public API from its OpenAPI document (built without
// servers) and replays every recorded golden 200 body (services/api/test/fixtures/public-responses.json)
// through each client's reading of the operation's answer; any field lost, renamed, changed or a body
// refused fails the run. `--keep` leaves the generated sources in place and prints where; `--goldens
// <file>` replays another file of the same shape (to see the check fail on a doctored body).
//   - @hey-api/openapi-ts: the fetch SDK with zod response validation; each body goes through the SDK's
//     operation function, answered by a fetch that returns the recorded body.
//   - openapi-generator typescript-fetch: each body through `<Model>FromJSON` then `<Model>ToJSON`.
//   - openapi-generator java (native, Jackson): each body read into its model class and written back.
//   - openapi-generator python (pydantic v2): each body through the model's `from_dict` then `to_dict`.
// The openapi-generator jar is fetched once with Maven into the cache folder, Maven compiles the Java
// client, and the Python client runs on the machine's python3 with pydantic 2, urllib3 and
// python-dateutil installed (see docs/development.md).
// A passing run is remembered under a key hashed from everything the result depends on (the document,
// the goldens, this check's own code, the generators' and runtimes' versions; `cacheKeyInputs` below) in
// the cache folder (/var/cache/doctor-directory/check-clients): a run whose key has passed before prints
// the key and skips generation. `--no-cache` runs it anyway; `--keep` and `--goldens` never use the cache.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import { buildOpenApiDocument } from '../../infra/openapi/document.js';
import {
  documentedGetOperations,
  exampleReplays,
  fieldDifferences,
  replaysOf,
  type ComparisonOptions,
  type FieldDifference,
  type GoldenReplay,
  type GoldenResponse,
} from './golden-replay.js';

const OPENAPI_GENERATOR_VERSION = '7.25.0';
const root = resolve(import.meta.dirname, '../..');
const keep = process.argv.includes('--keep');
const goldensIndex = process.argv.indexOf('--goldens');
const useCache = !keep && goldensIndex === -1 && !process.argv.includes('--no-cache');
const cacheFolder = join(process.env.DIRECTORY_CACHE_DIR ?? '/var/cache/doctor-directory', 'check-clients');
const goldensFile =
  goldensIndex === -1
    ? join(root, 'services/api/test/fixtures/public-responses.json')
    : resolve(process.argv[goldensIndex + 1] ?? '');

type Failure = {
  readonly request: string;
  readonly problem: string;
  readonly differences: readonly FieldDifference[];
};

type GeneratorResult = {
  readonly generator: string;
  readonly operations: ReadonlySet<string>;
  readonly failures: readonly Failure[];
  readonly seconds: number;
};

const failureOf = (
  replay: GoldenReplay,
  parsed: unknown,
  options: ComparisonOptions = {},
): Failure | undefined => {
  const differences = fieldDifferences(replay.golden.body, parsed, options);
  return differences.length === 0
    ? undefined
    : { request: replay.golden.request, problem: 'differs', differences };
};

const failed = (replay: GoldenReplay, problem: string): Failure => ({
  request: replay.golden.request,
  problem,
  differences: [],
});

/** A client's reading of a replayed body against the body; a reading that throws is a refusal. */
async function readingFailure(
  replay: GoldenReplay,
  read: () => unknown,
  options: ComparisonOptions = {},
): Promise<Failure | undefined> {
  try {
    return failureOf(replay, await read(), options);
  } catch (error) {
    return failed(replay, `refused: ${messageOf(error)}`);
  }
}

/** A validator's refusal as `$.path: message` lines (zod issues), anything else as its message. */
function messageOf(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues))
    return (issues as { path?: (string | number)[]; message?: string }[])
      .map(
        ({ path = [], message }) =>
          `${['$', ...path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`))].join('')}: ${message ?? ''}`,
      )
      .join('; ');
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** Generated code is loaded at run time: the calls below go through these narrow shapes. */
type SdkOperation = (options: Record<string, unknown>) => Promise<{ data: unknown }>;
type ModelConverter = (json: unknown) => unknown;

async function checkHeyApi(documentFile: string, folder: string, replays: readonly GoldenReplay[]) {
  const started = performance.now();
  const output = join(folder, 'hey-api');
  await generateHeyApiClient({
    input: documentFile,
    output,
    logs: { level: 'silent' },
    plugins: [
      '@hey-api/typescript',
      'zod',
      '@hey-api/transformers',
      { name: '@hey-api/sdk', validator: true, transformer: true },
      '@hey-api/client-fetch',
    ],
  });
  const sdk = (await import(pathToFileURL(join(output, 'sdk.gen.ts')).href)) as Record<string, unknown>;
  const clientModule = (await import(pathToFileURL(join(output, 'client/index.ts')).href)) as {
    createClient: (config: Record<string, unknown>) => unknown;
  };
  const failures: Failure[] = [];
  const operations = new Set<string>();
  for (const replay of replays) {
    const operation = sdk[replay.operation.operationId] as SdkOperation | undefined;
    if (operation === undefined) {
      failures.push(failed(replay, `no SDK function ${replay.operation.operationId}`));
      continue;
    }
    operations.add(replay.operation.operationId);
    const answer = JSON.stringify(replay.golden.body);
    const client = clientModule.createClient({
      baseUrl: 'http://golden.invalid',
      fetch: () =>
        Promise.resolve(
          new Response(answer, {
            status: 200,
            headers: { 'content-type': replay.golden.contentType ?? 'application/json' },
          }),
        ),
    });
    // The recorded URL is requested as is; request validation is not what this check is about.
    const failure = await readingFailure(
      replay,
      async () =>
        (
          await operation({
            client,
            url: replay.golden.request,
            requestValidator: undefined,
            throwOnError: true,
          })
        ).data,
    );
    if (failure !== undefined) failures.push(failure);
  }
  return {
    generator: '@hey-api/openapi-ts (zod validator)',
    operations,
    failures,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The first line a command prints (stdout or stderr), or what went wrong running it. */
function versionOf(command: string, args: readonly string[]): string {
  const ran = spawnSync(command, args, { encoding: 'utf8' });
  if (ran.error !== undefined) return `${command}: ${ran.error.message}`;
  return `${ran.stdout}${ran.stderr}`.trim().split('\n')[0] ?? '';
}

/**
 * Everything a run's result depends on, each named: the key is their hash, so a change to any of them (a
 * route's schema, a golden, this check, a generator or runtime upgrade) runs the check again.
 */
function cacheKeyInputs(documentJson: string): [string, string][] {
  const here = import.meta.dirname;
  const heyApiFolder = join(root, 'node_modules/@hey-api');
  const heyApiVersions = readdirSync(heyApiFolder)
    .sort()
    .map((name) => {
      const manifest = JSON.parse(readFileSync(join(heyApiFolder, name, 'package.json'), 'utf8')) as {
        version: string;
      };
      return `@hey-api/${name}@${manifest.version}`;
    });
  const zodManifest = JSON.parse(readFileSync(join(root, 'node_modules/zod/package.json'), 'utf8')) as {
    version: string;
  };
  return [
    ['openapi document', documentJson],
    ['goldens', readFileSync(goldensFile, 'utf8')],
    ...['check-clients.ts', 'golden-replay.ts', 'java/Replay.java', 'python/replay.py'].map(
      (file): [string, string] => [file, readFileSync(join(here, file), 'utf8')],
    ),
    ['openapi-generator', OPENAPI_GENERATOR_VERSION],
    ['hey-api', heyApiVersions.join(' ')],
    ['zod', zodManifest.version],
    ['node', process.version],
    ['java', versionOf('java', ['-version'])],
    ['mvn', versionOf('mvn', ['-v'])],
    ['python', versionOf('python3', ['-c', 'import sys, pydantic; print(sys.version, pydantic.VERSION)'])],
  ];
}

function cacheKeyOf(inputs: readonly [string, string][]): string {
  const hash = createHash('sha256');
  for (const [name, content] of inputs) hash.update(`${name}\0${content.length}\0${content}\0`);
  return hash.digest('hex').slice(0, 24);
}

/** The openapi-generator CLI jar, fetched from Maven Central into the cache folder on first use. */
function openApiGeneratorJar(): string {
  const cache = join(process.env.DIRECTORY_CACHE_DIR ?? '/var/cache/doctor-directory', 'openapi-generator');
  const jar = join(cache, `openapi-generator-cli-${OPENAPI_GENERATOR_VERSION}.jar`);
  if (existsSync(jar)) return jar;
  mkdirSync(cache, { recursive: true });
  console.log(
    `fetching openapi-generator-cli ${OPENAPI_GENERATOR_VERSION} with mvn dependency:copy into ${cache}`,
  );
  const fetched = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:copy',
      `-Dartifact=org.openapitools:openapi-generator-cli:${OPENAPI_GENERATOR_VERSION}`,
      `-DoutputDirectory=${cache}`,
    ],
    { encoding: 'utf8', timeout: 600_000 },
  );
  if (fetched.status !== 0 || !existsSync(jar))
    throw new Error(
      `could not fetch openapi-generator-cli with mvn (is mvn installed, Maven Central reachable?):\n${fetched.stdout}${fetched.stderr}${fetched.error?.message ?? ''}`,
    );
  return jar;
}

/** Runs one openapi-generator generator; answers its warnings, which say what it made of the document. */
function openApiGenerate(
  generator: string,
  documentFile: string,
  output: string,
  properties: string,
): string[] {
  const generated = spawnSync(
    'java',
    [
      '-jar',
      openApiGeneratorJar(),
      'generate',
      '-g',
      generator,
      '-i',
      documentFile,
      '-o',
      output,
      `--additional-properties=${properties}`,
    ],
    { encoding: 'utf8' },
  );
  if (generated.status !== 0)
    throw new Error(`openapi-generator ${generator} failed:\n${generated.stdout}${generated.stderr}`);
  return [
    ...new Set(
      generated.stdout
        .split('\n')
        .filter((line) => line.includes(' WARN '))
        .map((line) => `${generator}: ${line.replace(/^.*? WARN\s+/, '')}`),
    ),
  ];
}

async function checkOpenApiGenerator(documentFile: string, folder: string, replays: readonly GoldenReplay[]) {
  openApiGeneratorJar(); // a first run's download is not generation time
  const started = performance.now();
  const output = join(folder, 'typescript-fetch');
  const warnings = openApiGenerate('typescript-fetch', documentFile, output, 'supportsES6=true');
  const models = (await import(pathToFileURL(join(output, 'models/index.ts')).href)) as Record<
    string,
    unknown
  >;
  const failures: Failure[] = [];
  const operations = new Set<string>();
  for (const replay of replays) {
    const schema = replay.operation.successSchema;
    const fromJson = models[`${schema}FromJSON`] as ModelConverter | undefined;
    const toJson = models[`${schema}ToJSON`] as ModelConverter | undefined;
    if (schema === undefined || fromJson === undefined || toJson === undefined) {
      failures.push(failed(replay, `no model ${schema ?? '(inline 200 schema)'} with FromJSON/ToJSON`));
      continue;
    }
    operations.add(replay.operation.operationId);
    const failure = await readingFailure(replay, () => toJson(fromJson(structuredClone(replay.golden.body))));
    if (failure !== undefined) failures.push(failure);
  }
  const result: GeneratorResult = {
    generator: `openapi-generator ${OPENAPI_GENERATOR_VERSION} typescript-fetch (FromJSON, ToJSON)`,
    operations,
    failures,
    seconds: (performance.now() - started) / 1000,
  };
  return { result, warnings };
}

/**
 * openapi-generator's `java` client (native library, Jackson): test/generated-clients/java/Replay.java
 * reads each body into the 200 schema's model class with the client's ObjectMapper and writes it back.
 * Maven compiles it (fetching the client's dependencies on first use). `containerDefaultToNull` keeps an
 * absent list absent (by default the models start every list as `[]`, so absent lists come back empty);
 * date-times compare as instants, since `OffsetDateTime` writes `…T10:00:00Z` for `…T10:00:00.000Z`.
 */
function checkOpenApiGeneratorJava(documentFile: string, folder: string, replays: readonly GoldenReplay[]) {
  openApiGeneratorJar(); // a first run's download is not generation time
  const started = performance.now();
  const output = join(folder, 'java');
  const warnings = openApiGenerate(
    'java',
    documentFile,
    output,
    'library=native,hideGenerationTimestamp=true,containerDefaultToNull=true',
  );
  mkdirSync(join(output, 'src/main/java/replay'), { recursive: true });
  copyFileSync(
    join(import.meta.dirname, 'java/Replay.java'),
    join(output, 'src/main/java/replay/Replay.java'),
  );
  const compiled = spawnSync(
    'mvn',
    ['-q', '-B', 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'],
    { cwd: output, encoding: 'utf8', timeout: 600_000 },
  );
  if (compiled.status !== 0)
    throw new Error(`mvn could not compile the generated Java client:\n${compiled.stdout}${compiled.stderr}`);
  const modelled = modelledReplays(replays, join(output, 'replays.json'));
  const classpath = `${join(output, 'target/classes')}${delimiter}${readFileSync(join(output, 'classpath.txt'), 'utf8').trim()}`;
  const ran = spawnSync(
    'java',
    ['-cp', classpath, 'replay.Replay', join(output, 'replays.json'), join(output, 'answers.json')],
    {
      encoding: 'utf8',
    },
  );
  if (ran.status !== 0) throw new Error(`the Java replay failed:\n${ran.stdout}${ran.stderr}`);
  const result: GeneratorResult = {
    generator: `openapi-generator ${OPENAPI_GENERATOR_VERSION} java native (Jackson read, write)`,
    operations: new Set(modelled.map((replay) => replay.operation.operationId)),
    failures: answerFailures(replays, modelled, join(output, 'answers.json')),
    seconds: (performance.now() - started) / 1000,
  };
  return { result, warnings };
}

/** The replays a program in another language read back, from its answers file (one answer per replay). */
function modelledReplays(replays: readonly GoldenReplay[], file: string): GoldenReplay[] {
  const modelled = replays.filter((replay) => replay.operation.successSchema !== undefined);
  writeFileSync(
    file,
    JSON.stringify(
      modelled.map((replay) => ({ schema: replay.operation.successSchema, body: replay.golden.body })),
    ),
  );
  return modelled;
}

/**
 * The failures of a replay run outside Node (`{ value } | { error }` per modelled replay, in order):
 * refusals, field differences (date-times as instants: each language writes them its own way), and every
 * operation whose 200 schema is inline (no model to read it with).
 */
function answerFailures(
  replays: readonly GoldenReplay[],
  modelled: readonly GoldenReplay[],
  answersFile: string,
  options: ComparisonOptions = {},
): Failure[] {
  const answers = JSON.parse(readFileSync(answersFile, 'utf8')) as { value?: unknown; error?: string }[];
  const failures: Failure[] = replays
    .filter((replay) => replay.operation.successSchema === undefined)
    .map((replay) => failed(replay, 'no model for an inline 200 schema'));
  modelled.forEach((replay, index) => {
    const answer = answers[index];
    if (answer?.error !== undefined || answer === undefined)
      failures.push(failed(replay, `refused: ${answer?.error ?? 'no answer'}`));
    else {
      const failure = failureOf(replay, answer.value, { ...options, dateTimesAsInstants: true });
      if (failure !== undefined) failures.push(failure);
    }
  });
  return failures;
}

/**
 * openapi-generator's `python` client (pydantic v2 models): test/generated-clients/python/replay.py reads
 * each body with the 200 schema's model (`from_dict`) and writes it back (`to_dict`). Its models set every
 * optional field a body leaves out to None and write it as null: a program sees None either way, so an
 * added null is not a difference here (absentAsNull); a field lost, renamed or changed still is.
 */
function checkOpenApiGeneratorPython(documentFile: string, folder: string, replays: readonly GoldenReplay[]) {
  openApiGeneratorJar(); // a first run's download is not generation time
  const started = performance.now();
  const output = join(folder, 'python');
  const warnings = openApiGenerate(
    'python',
    documentFile,
    output,
    'packageName=directory_client,hideGenerationTimestamp=true',
  );
  const modelled = modelledReplays(replays, join(output, 'replays.json'));
  const ran = spawnSync(
    'python3',
    [
      join(import.meta.dirname, 'python/replay.py'),
      output,
      join(output, 'replays.json'),
      join(output, 'answers.json'),
    ],
    { encoding: 'utf8' },
  );
  if (ran.status !== 0)
    throw new Error(
      `the Python replay failed (python3 with pydantic 2, urllib3 and python-dateutil is needed):\n${ran.stdout}${ran.stderr}`,
    );
  const result: GeneratorResult = {
    generator: `openapi-generator ${OPENAPI_GENERATOR_VERSION} python (pydantic from_dict, to_dict)`,
    operations: new Set(modelled.map((replay) => replay.operation.operationId)),
    failures: answerFailures(replays, modelled, join(output, 'answers.json'), { absentAsNull: true }),
    seconds: (performance.now() - started) / 1000,
  };
  return { result, warnings };
}

/** The summary lines of this run, kept with a passing run's cache entry. */
const summaryLines: string[] = [];

function report(result: GeneratorResult): boolean {
  const summary = `${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${result.generator}: ${result.operations.size} operation(s) checked (${[...result.operations].join(', ')}), ${replayedBodies}, ${result.failures.length} failure(s), ${result.seconds.toFixed(1)} s`;
  summaryLines.push(summary);
  console.log(summary);
  for (const failure of result.failures.slice(0, 20)) {
    console.log(`     ${failure.request}: ${failure.problem}`);
    for (const difference of failure.differences.slice(0, 10))
      console.log(`       ${difference.kind} ${difference.path} (${difference.detail})`);
  }
  if (result.failures.length > 20) console.log(`     ... and ${result.failures.length - 20} more`);
  return result.failures.length === 0;
}

const document = await buildOpenApiDocument();
const documentJson = JSON.stringify(document);
const cacheKey = useCache ? cacheKeyOf(cacheKeyInputs(documentJson)) : undefined;
const cacheEntry = cacheKey === undefined ? undefined : join(cacheFolder, `${cacheKey}.json`);
if (cacheEntry !== undefined && existsSync(cacheEntry)) {
  const passed = JSON.parse(readFileSync(cacheEntry, 'utf8')) as { passedAt: string; summary: string[] };
  console.log(
    `check:clients: cache key ${cacheKey}: these inputs passed at ${passed.passedAt} (${cacheEntry}); generation skipped (--no-cache runs it)`,
  );
  for (const line of passed.summary) console.log(`  (cached) ${line}`);
  process.exit(0);
}
if (cacheKey !== undefined) console.log(`check:clients: cache key ${cacheKey}: not passed before; checking`);
const goldens = JSON.parse(readFileSync(goldensFile, 'utf8')) as GoldenResponse[];
const documentedOperations = documentedGetOperations(document);
const { replays: goldenReplays, unmatched } = replaysOf(goldens, documentedOperations);
const examples = exampleReplays(documentedOperations);
const replays = [...goldenReplays, ...examples];
const replayedBodies = `${goldenReplays.length} golden bodies and ${examples.length} document examples replayed`;
// Inside node_modules so that generated code resolves its imports (zod) from the project's packages.
const cacheParent = join(root, 'node_modules/.cache');
mkdirSync(cacheParent, { recursive: true });
const folder = mkdtempSync(join(cacheParent, 'generated-clients-'));
const documentFile = join(folder, 'openapi.json');
writeFileSync(documentFile, documentJson);

let clean = unmatched.length === 0 && goldenReplays.length > 0;
for (const golden of unmatched)
  console.log(`FAIL golden 200 of ${golden.request} matches no documented GET operation`);
try {
  clean = report(await checkHeyApi(documentFile, folder, replays)) && clean;
  for (const { result, warnings } of [
    await checkOpenApiGenerator(documentFile, folder, replays),
    checkOpenApiGeneratorJava(documentFile, folder, replays),
    checkOpenApiGeneratorPython(documentFile, folder, replays),
  ]) {
    for (const warning of warnings) console.log(`     openapi-generator ${warning}`);
    clean = report(result) && clean;
  }
} catch (error) {
  console.error(messageOf(error));
  clean = false;
} finally {
  if (keep) console.log(`generated clients kept in ${folder}`);
  else rmSync(folder, { recursive: true, force: true });
}
if (clean && cacheEntry !== undefined) {
  mkdirSync(cacheFolder, { recursive: true });
  writeFileSync(cacheEntry, JSON.stringify({ passedAt: new Date().toISOString(), summary: summaryLines }));
}
process.exit(clean ? 0 : 1);
