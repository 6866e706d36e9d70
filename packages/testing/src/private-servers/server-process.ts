import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { REPOSITORY_ROOT } from '../processes.js';

/**
 * A server process a fault test owns: started in its own process group, its whole process tree (the
 * `runuser` wrapper, the server and the children it forks) signalled together, its output kept (the last
 * 64 KiB) for failure messages.
 */
export type ServerProcess = {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
  running: () => boolean;
  /** Sends `signal` to every process of the tree, parents first (SIGSTOP: nothing forks meanwhile). */
  signalTree: (signal: NodeJS.Signals) => void;
};

const OUTPUT_LIMIT = 64 * 1024;

export function spawnServer(command: string, args: string[]): ServerProcess {
  const child = spawn(command, args, {
    cwd: REPOSITORY_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const running = () => child.exitCode === null && child.signalCode === null;
  const signalTree = (signal: NodeJS.Signals) => {
    if (child.pid === undefined || !running()) return;
    for (const pid of processTree(child.pid)) signalQuietly(pid, signal);
  };
  // The server runs in a session of its own, so it would outlive a test process that dies or forgets
  // to stop it: kill it when this process exits, whatever the reason.
  const killOnExit = () => signalTree('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  return { child, exited, output: () => output, running, signalTree };
}

/** Runs a command as `user` when the tests run as root (PostgreSQL and Elasticsearch refuse root). */
export function asUser(user: string, command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
}

export function userIds(user: string): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync('id', ['-u', user]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', user]).toString().trim()),
  };
}

/** `pid` and all its descendants, parents before children (PostgreSQL backends start sessions of their own). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    try {
      const children = execFileSync('pgrep', ['-P', String(tree[index])]).toString();
      tree.push(...children.split('\n').filter(Boolean).map(Number));
    } catch {
      // pgrep exits 1 when a process has no children.
    }
  }
  return tree;
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
