import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import type { ServerProcess } from './server-process.js';

/** One command on a connection of its own to a private Redis node: no retries, no reconnects. */
export async function askRedis<T>(port: number, command: (connection: Redis) => Promise<T>): Promise<T> {
  const connection = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    commandTimeout: 2_000,
  });
  connection.on('error', () => undefined);
  try {
    await connection.connect();
    return await command(connection);
  } finally {
    connection.disconnect();
  }
}

/**
 * What every private Redis data node starts with: loopback, a folder of its own, nothing saved unless a
 * test says SAVE, and BullMQ's `noeviction` (the production settings are in docs/operations.md).
 */
export function privateRedisArgs(port: number, dir: string): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--maxmemory-policy',
    'noeviction',
  ];
}

/** The processes of one private Redis topology, by port, and the folder they keep their files in. */
export function redisProcesses(dir: string) {
  const servers = new Map<number, ServerProcess>();
  return {
    servers,
    /** SIGKILL one node (its connections drop at once). */
    kill: async (port: number): Promise<void> => {
      const server = servers.get(port);
      if (!server?.running()) return;
      server.signalTree('SIGKILL');
      await server.exited;
    },
    destroy: async (): Promise<void> => {
      for (const server of servers.values()) server.signalTree('SIGKILL');
      await Promise.all([...servers.values()].map((server) => server.exited));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
