import { Redis } from 'ioredis';
import { freePort } from '../processes.js';
import { spawnServer, waitUntil, type ServerProcess } from './server-process.js';

/**
 * A Redis of a fault test's own (the machine's `redis-server` on a free loopback port) with persistence
 * off, as the local services run it: killed and restarted, it comes back empty, like a production Redis
 * without AOF or snapshots. The shared Redis is never touched.
 */
export type PrivateRedis = {
  port: number;
  url: string;
  /** Starts the server again (same port, empty) after `kill` and waits until it answers PING. */
  start: () => Promise<void>;
  /** SIGKILL: every key is lost, connections drop. */
  kill: () => Promise<void>;
  /** `kill`, then `start`: what a crashed and restarted Redis without persistence looks like. */
  restart: () => Promise<void>;
  destroy: () => Promise<void>;
};

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ServerProcess | undefined;

  const start = async () => {
    const started = spawnServer('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      // BullMQ's requirement; the production settings (persistence, noeviction) are in docs/operations.md.
      '--maxmemory-policy',
      'noeviction',
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
    start,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    destroy: kill,
  };
}
