import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../processes.js';
import { askRedis, privateRedisArgs, redisProcesses } from './redis-nodes.js';
import { spawnServer, waitUntil } from './server-process.js';

/**
 * A primary, one replica and three sentinels of a test's own (the machine's `redis-server`, free
 * loopback ports, no persistence). The sentinels call the primary down after one second and fail
 * over within a few more. The shared Redis is never touched.
 */
export type PrivateRedisSentinel = {
  /** REDIS_SENTINELS for the project's processes. */
  sentinels: string;
  /** REDIS_SENTINEL_MASTER. */
  master: string;
  /** The port of the primary as the sentinels name it now. */
  primaryPort: () => Promise<number>;
  /** SIGKILL one data node (the primary, for a failover). */
  kill: (port: number) => Promise<void>;
  /** Resolves once the sentinels name a primary other than `port` and it accepts writes. */
  waitForFailoverFrom: (port: number, timeoutMs?: number) => Promise<void>;
  destroy: () => Promise<void>;
};

const MASTER = 'directory-test';

export async function startPrivateRedisSentinel(): Promise<PrivateRedisSentinel> {
  const dir = await mkdtemp(join(tmpdir(), 'private-redis-sentinel-'));
  const { servers, kill, destroy } = redisProcesses(dir);
  const [primary, replica] = [await freePort(), await freePort()];
  const sentinelPorts = [await freePort(), await freePort(), await freePort()];
  const dataNode = async (port: number, extra: string[]) => {
    const nodeDir = join(dir, String(port));
    await mkdir(nodeDir);
    servers.set(port, spawnServer('redis-server', [...privateRedisArgs(port, nodeDir), ...extra]));
    await waitUntil(
      async () => (await askRedis(port, (connection) => connection.ping())) === 'PONG',
      15_000,
      () => `Redis on ${port} did not answer:\n${servers.get(port)?.output() ?? ''}`,
    );
  };
  const namedPrimary = async (sentinel: number) => {
    const reply = await askRedis(sentinel, (connection) =>
      connection.call('SENTINEL', 'get-master-addr-by-name', MASTER),
    );
    return Array.isArray(reply) ? Number(reply[1]) : 0;
  };

  try {
    await dataNode(primary, []);
    await dataNode(replica, ['--replicaof', '127.0.0.1', String(primary)]);
    await waitUntil(
      async () =>
        (await askRedis(replica, (connection) => connection.info('replication'))).includes(
          'master_link_status:up',
        ),
      15_000,
      () => 'the replica did not sync with the primary',
    );
    for (const port of sentinelPorts) {
      const file = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `sentinel monitor ${MASTER} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${MASTER} 1000`,
          `sentinel failover-timeout ${MASTER} 5000`,
          `sentinel parallel-syncs ${MASTER} 1`,
          '',
        ].join('\n'),
      );
      servers.set(port, spawnServer('redis-server', [file, '--sentinel']));
    }
    await waitUntil(
      async () => {
        for (const port of sentinelPorts) {
          if ((await namedPrimary(port)) !== primary) return false;
          const sentinels = await askRedis(port, (connection) =>
            connection.call('SENTINEL', 'sentinels', MASTER),
          );
          // Each knows the two others (they find each other through the primary's hello channel).
          if (!Array.isArray(sentinels) || sentinels.length < 2) return false;
        }
        return true;
      },
      30_000,
      () => 'the sentinels did not agree on the primary',
    );
  } catch (error) {
    await destroy();
    throw error;
  }

  return {
    sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    master: MASTER,
    primaryPort: () => namedPrimary(sentinelPorts[0] ?? 0),
    kill,
    waitForFailoverFrom: async (port, timeoutMs = 30_000) => {
      await waitUntil(
        async () => {
          const now = await namedPrimary(sentinelPorts[0] ?? 0);
          if (now === port || now === 0) return false;
          const role = await askRedis(now, (connection) => connection.info('replication'));
          return role.includes('role:master');
        },
        timeoutMs,
        () => `the sentinels did not fail over from ${port}`,
      );
    },
    destroy,
  };
}
