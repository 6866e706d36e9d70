import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How `startProcess` runs an entry: from the TypeScript source through tsx (the default), or, with
 * `DIRECTORY_PROCESSES=compiled` (every test project that starts processes), as the production build runs it:
 * `node dist/directory.js <command>` (docs/development.md, "Build"). Either way through the `directory`
 * command, as `npm run <command>` and production start it, so specs see its exit codes and messages.
 */
export type ProcessMode = 'source' | 'compiled';

export const COMPILED_BUILD = 'dist/directory.js';
const COMMAND_SOURCE = 'services/directory/src/directory.ts';

/** The modules of the `directory` commands (what specs name) and the command that runs each. */
export const COMMAND_OF_ENTRY: Readonly<Record<string, string>> = {
  'services/api/src/server.ts': 'api',
  'services/mcp/src/server.ts': 'mcp',
  'services/console/src/server.ts': 'console',
  'services/worker/src/main.ts': 'worker',
  'packages/database/src/migrate.cli.ts': 'migrate',
  'packages/ingest/src/ingest.cli.ts': 'ingest',
  'packages/keys/src/keys.cli.ts': 'keys',
  'packages/keys/src/accounts.cli.ts': 'accounts',
  'packages/operator/src/reindex.cli.ts': 'reindex',
  'packages/operator/src/dead-letters.cli.ts': 'dead-letters',
  'packages/operator/src/jobs.cli.ts': 'jobs',
  'packages/operator/src/status.cli.ts': 'status',
  'packages/operator/src/sandbox.cli.ts': 'sandbox',
  'packages/operator/src/db.cli.ts': 'db',
  'packages/operator/src/duplicates.cli.ts': 'duplicates',
  'packages/operator/src/fhir.cli.ts': 'fhir',
  'packages/webhooks/src/webhooks.cli.ts': 'webhooks',
};

/** Development tools that are no part of the production build: they run from source in both modes. */
export const SOURCE_ONLY_ENTRIES: ReadonlySet<string> = new Set(['packages/sample-data/src/generate.cli.ts']);

export function processModeOf(environment: NodeJS.ProcessEnv = process.env): ProcessMode {
  const mode = environment.DIRECTORY_PROCESSES ?? 'source';
  if (mode !== 'source' && mode !== 'compiled')
    throw new Error(`DIRECTORY_PROCESSES must be source or compiled, not ${mode}`);
  return mode;
}

/** The arguments of `node` that run `directory <args>` in `mode`. */
export function directoryArguments(args: string[], mode: ProcessMode = processModeOf()): string[] {
  return mode === 'source'
    ? ['--import', 'tsx', COMMAND_SOURCE, ...args]
    : ['--enable-source-maps', COMPILED_BUILD, ...args];
}

/** A spec's own fixture (a small server of its own, under a `test/` folder): no command, run as it is. */
function isSpecFixture(entry: string): boolean {
  return entry.split('/').includes('test');
}

/** The arguments of `node` that start `entry` with `args` in `mode`. */
export function nodeArguments(entry: string, args: string[], mode: ProcessMode = processModeOf()): string[] {
  const command = COMMAND_OF_ENTRY[entry];
  if (command !== undefined) return directoryArguments([command, ...args], mode);
  if (mode === 'source' || SOURCE_ONLY_ENTRIES.has(entry) || isSpecFixture(entry))
    return ['--import', 'tsx', entry, ...args];
  throw new Error(
    `${entry} has no directory command: add it to COMMAND_OF_ENTRY (packages/testing/src/processes.ts), ` +
      'or to SOURCE_ONLY_ENTRIES if it is a development tool',
  );
}

/**
 * Why the compiled build cannot be tested as it is, or undefined: it is missing, or a source file it
 * was built from (its metafile's inputs) changed or disappeared since.
 */
export function compiledBuildProblem(root: string = REPOSITORY_ROOT): string | undefined {
  const bundle = join(root, COMPILED_BUILD);
  if (!existsSync(bundle)) return `${COMPILED_BUILD} is missing: run npm run build first`;
  const builtAt = statSync(bundle).mtimeMs;
  const metafile = JSON.parse(readFileSync(bundle.replace(/\.js$/, '.meta.json'), 'utf8')) as {
    inputs: Record<string, unknown>;
  };
  const stale = Object.keys(metafile.inputs).find((input) => {
    const source = join(root, input);
    return !existsSync(source) || statSync(source).mtimeMs > builtAt;
  });
  return stale === undefined
    ? undefined
    : `${COMPILED_BUILD} is older than ${stale}: run npm run build again`;
}

export type RunningProcess = {
  child: ChildProcess;
  output: () => string;
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

/**
 * Operator listeners off unless a test asks for one: spec files run in parallel, and two processes
 * on the same default operator port would collide.
 */
const NO_OPERATOR_LISTENERS = {
  API_OPS_PORT: '0',
  MCP_OPS_PORT: '0',
  CONSOLE_OPS_PORT: '0',
  WORKER_OPS_PORT: '0',
};

/**
 * No drain before a server closes unless a test asks for one (the graceful-drain fault spec): specs stop
 * their processes and wait for the exit, and nothing balances load in front of them.
 */
const NO_DRAIN = { SHUTDOWN_DRAIN_MS: '0' };

/**
 * The compiled command runs as production unless told otherwise (services/directory, default-node-env.ts):
 * processes started here use the development secrets, so they are told (vitest has set `test` already;
 * a benchmark run from tsx has set nothing).
 */
const NOT_PRODUCTION = { NODE_ENV: process.env.NODE_ENV || 'development' };

/**
 * Starts one of the project's entry points the way a user would (`tsx <file>`, or the compiled
 * `directory <command>`: `ProcessMode`), capturing its output; `stdin`, when given, is what it reads.
 */
export function startProcess(
  entry: string,
  args: string[],
  env: Record<string, string>,
  options: { stdin?: Readable } = {},
): RunningProcess {
  const child = spawn(process.execPath, nodeArguments(entry, args), {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...NOT_PRODUCTION, ...NO_OPERATOR_LISTENERS, ...NO_DRAIN, ...env },
    // A stream with a descriptor of its own (another process's stdout) is handed over as it is.
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitForOutput: async (pattern, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (child.exitCode !== null)
          throw new Error(`${entry} exited (${child.exitCode}) before ${pattern}:\n${output}`);
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${pattern} from ${entry}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** How a process run to its end finished: its exit code and its output, stdout and stderr apart. */
export type FinishedProcess = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `node <nodeArgs>` (from `nodeArguments` or `directoryArguments`) at the repository root to its
 * end, as a user runs a command: what it exited with and printed, stdout and stderr apart.
 */
export function runToExit(nodeArgs: string[], env: NodeJS.ProcessEnv): Promise<FinishedProcess> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Polls until `check` returns true (or throws after the timeout with the last value described). */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Ports handed to the processes tests start come from below the kernel's ephemeral range (32768–60999
 * on Linux): a port picked there can be taken by any outgoing connection between the check and the
 * process's bind, and the process then fails with EADDRINUSE. The range also keeps a Redis Cluster
 * node's bus (its port + 10000) below it.
 */
export const TEST_PORT_RANGE = { first: 12_000, last: 22_767 } as const;
const PORT_SLICES = 8;

/** The part of the test port range a worker draws from, so two workers never hand out the same port. */
export function portSlice(worker: number): { first: number; last: number } {
  const size = Math.floor((TEST_PORT_RANGE.last - TEST_PORT_RANGE.first + 1) / PORT_SLICES);
  const first = TEST_PORT_RANGE.first + (worker % PORT_SLICES) * size;
  return { first, last: first + size - 1 };
}

/** This worker's slice (each vitest worker has a pool id; a process outside vitest, its pid). */
export function ownPortSlice(): { first: number; last: number } {
  return portSlice(Number(process.env.VITEST_POOL_ID ?? process.pid));
}

let nextPort: number | undefined;

/** A TCP port free on loopback right now, for a process about to be started; never the same twice in turn. */
export async function freePort(): Promise<number> {
  const slice = ownPortSlice();
  const size = slice.last - slice.first + 1;
  // A random start, so two processes of one worker (one after the other) do not reuse each other's ports.
  const start = nextPort ?? slice.first + Math.floor(Math.random() * size);
  for (let offset = 0; offset < size; offset++) {
    const candidate = slice.first + ((start - slice.first + offset) % size);
    nextPort = candidate === slice.last ? slice.first : candidate + 1;
    if (await isFree(candidate)) return candidate;
  }
  throw new Error(`no free port on 127.0.0.1 between ${slice.first} and ${slice.last}`);
}

/** Whether `port` can be bound on loopback right now. */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
