import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

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

/** Starts one of the project's entry points the way a user would (`tsx <file>`), capturing its output. */
export function startProcess(entry: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...NO_OPERATOR_LISTENERS, ...NO_DRAIN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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

/** A TCP port free on loopback right now, for a process about to be started. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
