import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, isFree } from '../processes.js';
import { askRedis, privateRedisArgs, redisProcesses } from './redis-nodes.js';
import { spawnServer, waitUntil } from './server-process.js';

const run = promisify(execFile);

/**
 * A Redis Cluster of a test's own: three primaries and one replica each (the machine's `redis-server`
 * with `--cluster-enabled yes`, on free loopback ports, formed with `redis-cli --cluster create`), no
 * persistence, and a one-second node timeout so a killed primary's replica is promoted within seconds.
 * The shared Redis is never touched.
 */
export type PrivateRedisCluster = {
  ports: number[];
  /** REDIS_CLUSTER_NODES for the project's processes. */
  nodes: string;
  /** The port of the primary serving `key`'s slot now (asked of the cluster). */
  primaryFor: (key: string) => Promise<number>;
  /** The port of the replica of the primary on `port`. */
  replicaOf: (port: number) => Promise<number>;
  /** SIGKILL one node: its connections drop, and its replica takes over its slots after the node timeout. */
  kill: (port: number) => Promise<void>;
  /** Resolves once every live node reports cluster_state:ok and none lists `port` as serving a slot. */
  waitForPromotionOf: (port: number, timeoutMs?: number) => Promise<void>;
  destroy: () => Promise<void>;
};

const NODES = 6;
const NODE_TIMEOUT_MS = 1_000;

export async function startPrivateRedisCluster(): Promise<PrivateRedisCluster> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < NODES && attempt < 1_000; attempt++) {
    const port = await freePort();
    // The cluster bus listens on port + 10000: both must be free, and no node's bus another's port.
    const taken = ports.flatMap((other) => [other, other + 10_000]);
    if ([port, port + 10_000].some((candidate) => taken.includes(candidate))) continue;
    if (port + 10_000 <= 65_535 && (await isFree(port + 10_000))) ports.push(port);
  }
  if (ports.length < NODES) throw new Error('no free ports for a private Redis Cluster');
  const dir = await mkdtemp(join(tmpdir(), 'private-redis-cluster-'));
  const { servers, kill, destroy } = redisProcesses(dir);
  const clusterOk = async (port: number) =>
    (await askRedis(port, (connection) => connection.cluster('INFO'))).includes('cluster_state:ok');

  try {
    for (const port of ports) {
      const nodeDir = join(dir, String(port));
      await mkdir(nodeDir);
      servers.set(
        port,
        spawnServer('redis-server', [
          ...privateRedisArgs(port, nodeDir),
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(NODE_TIMEOUT_MS),
          // A replica takes over however long ago it last heard from its primary (a young cluster's
          // replicas may not have synced yet when a test kills a primary).
          '--cluster-replica-validity-factor',
          '0',
        ]),
      );
    }
    for (const port of ports) {
      await waitUntil(
        async () => (await askRedis(port, (connection) => connection.ping())) === 'PONG',
        15_000,
        () => `cluster node ${port} did not answer:\n${servers.get(port)?.output() ?? ''}`,
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    await waitUntil(
      async () => {
        for (const port of ports) {
          if (!(await clusterOk(port))) return false;
          const replication = await askRedis(port, (connection) => connection.info('replication'));
          // Every replica has synced with its primary: a failover then loses nothing written before.
          if (replication.includes('role:slave') && !replication.includes('master_link_status:up'))
            return false;
        }
        return true;
      },
      30_000,
      () => 'the private Redis Cluster did not reach cluster_state:ok',
    );
  } catch (error) {
    await destroy();
    throw error;
  }

  const live = () => ports.filter((port) => servers.get(port)?.running() === true);

  return {
    ports,
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    primaryFor: async (key) => {
      const [live0 = ports[0] ?? 0] = live();
      const slot = await askRedis(live0, (connection) => connection.cluster('KEYSLOT', key));
      const ranges = await askRedis(live0, (connection) => connection.cluster('SLOTS'));
      const range = ranges.find(([first, last]) => slot >= first && slot <= last);
      if (range?.[2] === undefined) throw new Error(`no node serves slot ${slot}`);
      return range[2][1];
    },
    replicaOf: async (port) => {
      const lines = String(await askRedis(port, (connection) => connection.cluster('NODES'))).split('\n');
      const primaryId = lines.find((line) => line.includes('myself'))?.split(' ')[0] ?? '';
      const replica = lines.find((line) => line.split(' ')[3] === primaryId && /\bslave\b/.test(line));
      const address = replica?.split(' ')[1] ?? '';
      const replicaPort = Number(address.slice(address.indexOf(':') + 1, address.indexOf('@')));
      if (!ports.includes(replicaPort)) throw new Error(`no replica of ${port} in:\n${lines.join('\n')}`);
      return replicaPort;
    },
    kill,
    waitForPromotionOf: async (port, timeoutMs = 30_000) => {
      await waitUntil(
        async () => {
          for (const other of live()) {
            if (!(await clusterOk(other))) return false;
            // In every live node's view, another node serves the dead one's slots.
            const ranges = await askRedis(other, (connection) => connection.cluster('SLOTS'));
            if (ranges.some((range) => range[2]?.[1] === port)) return false;
          }
          return true;
        },
        timeoutMs,
        () => `no replica took over the slots of ${port}`,
      );
    },
    destroy,
  };
}
