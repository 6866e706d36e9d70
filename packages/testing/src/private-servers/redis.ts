import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../processes.js';
import { privateRedisArgs } from './redis-nodes.js';
import { spawnServer, waitUntil, type ServerProcess } from './server-process.js';

/**
 * A Redis of a fault test's own (the machine's `redis-server` on a free loopback port, its files in a
 * temporary folder of its own). Persistence is off, as the local services run it: killed and restarted,
 * it comes back empty, like a production Redis without AOF or snapshots. Only a test's explicit `SAVE`
 * writes a snapshot, which the next `start` loads: a Redis with RDB or AOF that crashed and lost the
 * writes made after it (a test decides exactly which). The shared Redis is never touched.
 */
export type PrivateRedis = {
  port: number;
  url: string;
  /** The same server over its unix socket (`unix:///…/redis.sock`, in its own folder). */
  socketUrl: string;
  /** Starts the server again (same port, same folder) after `kill` and waits until it answers PING. */
  start: () => Promise<void>;
  /** SIGKILL: connections drop, and every write since the last SAVE (all, without one) is lost. */
  kill: () => Promise<void>;
  /** `kill`, then `start`: what a crashed and restarted Redis looks like. */
  restart: () => Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered (until `resume`). */
  pause: () => void;
  /** SIGCONT after `pause`. */
  resume: () => void;
  destroy: () => Promise<void>;
};

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const dir = await mkdtemp(join(tmpdir(), 'private-redis-'));
  const socket = join(dir, 'redis.sock');
  let server: ServerProcess | undefined;

  const start = async () => {
    // Only a test's SAVE writes a snapshot, loaded from `dir` at the next start.
    const started = spawnServer('redis-server', [
      ...privateRedisArgs(port, dir),
      ...['--unixsocket', socket, '--unixsocketperm', '700'],
    ]);
    server = started;
    await waitUntil(
      async () => {
        if (!started.running()) throw new Error('exited');
        const client = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        // A refused connection rejects connect(); the same error as an event needs no second report.
        client.on('error', () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      15_000,
      () => `private Redis on port ${port} did not answer:\n${started.output()}`,
    );
  };
  const kill = async () => {
    const current = server;
    if (!current?.running()) return;
    current.signalTree('SIGKILL');
    await current.exited;
  };

  await start();
  return {
    port,
    url,
    socketUrl: `unix://${socket}`,
    start,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    pause: () => server?.signalTree('SIGSTOP'),
    resume: () => server?.signalTree('SIGCONT'),
    destroy: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
