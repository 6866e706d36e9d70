// What a benchmark ran on, printed at its start: a figure means little without the cores and memory it
// had, the engines' versions and the settings that bound them (Elasticsearch's heap, PostgreSQL's shared
// buffers and WAL, Redis's memory limit and persistence), and whether the clients reach PostgreSQL and
// Redis over a unix socket or TCP (loopback TCP costs a measurable share of a small request).
import { readFileSync } from 'node:fs';
import { availableParallelism, release, totalmem, type } from 'node:os';
import { sql } from 'kysely';
import { createRedisClient, redisTopology } from '@directory/config';
import type { BenchEnvironment } from './bench-environment.js';

export type SocketType = 'unix' | 'tcp';

/** The PostgreSQL settings that bound a write- or read-heavy benchmark, as `show` prints them. */
export const POSTGRESQL_SETTINGS = [
  'shared_buffers',
  'synchronous_commit',
  'wal_level',
  'max_wal_size',
  'checkpoint_timeout',
  'fsync',
] as const;
type PostgresqlSetting = (typeof POSTGRESQL_SETTINGS)[number];

/** Every fact as plain JSON (a benchmark may add it to what it records). */
export type MachineFacts = {
  cores: number;
  memory_bytes: number;
  cpu_model: string;
  kernel: string;
  node: string;
  elasticsearch: { version: string; nodes: number; heap_max_bytes: number; socket: 'tcp' };
  postgresql: { version: string; socket: SocketType } & Record<PostgresqlSetting, string>;
  redis: { version: string; maxmemory: number; aof_enabled: boolean; save: string; socket: SocketType };
};

export type MachineDescription = { block: string; facts: MachineFacts };

/** What describeMachine asks: the benchmark's own connections and configuration. */
export type MachineEngines = Pick<BenchEnvironment, 'config' | 'db' | 'databaseUrl' | 'client'>;

/** Reads the machine and asks each engine the benchmark uses; `block` is for the log, `facts` for JSON. */
export async function describeMachine(environment: MachineEngines): Promise<MachineDescription> {
  const [elasticsearch, postgresql, redis] = await Promise.all([
    describeElasticsearch(environment),
    describePostgresql(environment),
    describeRedis(environment),
  ]);
  const facts: MachineFacts = {
    cores: availableParallelism(),
    memory_bytes: totalmem(),
    cpu_model: cpuModel(readText('/proc/cpuinfo')),
    kernel: `${type()} ${release()}`,
    node: process.version,
    elasticsearch,
    postgresql,
    redis,
  };
  return { block: formatMachine(facts), facts };
}

async function describeElasticsearch(environment: MachineEngines): Promise<MachineFacts['elasticsearch']> {
  const info = await environment.client.nodes.info({ metric: 'jvm' });
  const nodes = Object.values(info.nodes);
  return {
    version: [...new Set(nodes.map((node) => node.version))].join(', '),
    nodes: nodes.length,
    // Every node's maximum heap, together: the memory Elasticsearch may use for its own structures.
    heap_max_bytes: nodes.reduce((sum, node) => sum + (node.jvm?.mem?.heap_max_in_bytes ?? 0), 0),
    socket: 'tcp', // Elasticsearch speaks HTTP over TCP only
  };
}

async function describePostgresql(environment: MachineEngines): Promise<MachineFacts['postgresql']> {
  const show = async (name: PostgresqlSetting | 'server_version'): Promise<string> => {
    // `show` takes no parameters; the names are this module's own constants.
    const result = await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(environment.db);
    return Object.values(result.rows[0] ?? {})[0] ?? 'unknown';
  };
  const settings = {} as Record<PostgresqlSetting, string>;
  for (const name of POSTGRESQL_SETTINGS) settings[name] = await show(name);
  return {
    version: await show('server_version'),
    ...settings,
    socket: databaseSocket(environment.databaseUrl),
  };
}

async function describeRedis(environment: MachineEngines): Promise<MachineFacts['redis']> {
  const redis = createRedisClient(environment.config, 'probe', { timeoutMs: 5_000 });
  try {
    const info = parseRedisInfo(await redis.info());
    const save = await redis
      .call('config', 'get', 'save')
      .then((reply) => (Array.isArray(reply) ? String(reply[1] ?? '') : ''))
      // CONFIG may be renamed or refused on a managed Redis: the persistence is then shown by INFO alone.
      .catch(() => 'unknown');
    const topology = redisTopology(environment.config);
    return {
      version: info.get('redis_version') ?? 'unknown',
      maxmemory: Number(info.get('maxmemory') ?? 0),
      aof_enabled: info.get('aof_enabled') === '1',
      save,
      socket: topology.kind === 'standalone' ? redisSocket(topology.url) : 'tcp',
    };
  } finally {
    redis.disconnect();
  }
}

/** Lines of the block, one per part: the machine, then each engine. */
export function formatMachine(facts: MachineFacts): string {
  const { elasticsearch: es, postgresql: pg, redis } = facts;
  return [
    `machine: ${facts.cores} cores (${facts.cpu_model}), ${gib(facts.memory_bytes)} memory, ` +
      `${facts.kernel}, Node ${facts.node}`,
    `elasticsearch ${es.version}: ${es.nodes} node${es.nodes === 1 ? '' : 's'}, ` +
      `heap ${mib(es.heap_max_bytes)}, over ${es.socket}`,
    `postgresql ${pg.version}: shared_buffers ${pg.shared_buffers}, synchronous_commit ${pg.synchronous_commit}, ` +
      `wal_level ${pg.wal_level}, max_wal_size ${pg.max_wal_size}, checkpoint_timeout ${pg.checkpoint_timeout}, ` +
      `fsync ${pg.fsync}, over ${pg.socket}`,
    `redis ${redis.version}: maxmemory ${redis.maxmemory === 0 ? 'none' : mib(redis.maxmemory)}, ` +
      `aof ${redis.aof_enabled ? 'on' : 'off'}, rdb save ${redis.save === '' ? 'off' : `"${redis.save}"`}, ` +
      `over ${redis.socket}`,
  ].join('\n');
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MiB`;

/**
 * How a client given this DATABASE_URL reaches PostgreSQL: a host that is a directory (`/…`, also
 * percent-encoded in the URL's host, or a `host=/…` parameter) is a unix socket; anything else is TCP.
 */
export function databaseSocket(databaseUrl: string): SocketType {
  if (databaseUrl.startsWith('socket:')) return 'unix';
  if (!URL.canParse(databaseUrl)) {
    // A libpq keyword string: "host=/var/run/postgresql dbname=…".
    const host = /(?:^|\s)host=(\S*)/.exec(databaseUrl)?.[1];
    return host?.startsWith('/') ? 'unix' : 'tcp';
  }
  const url = new URL(databaseUrl);
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname);
  return host.startsWith('/') ? 'unix' : 'tcp';
}

/** How a client given this REDIS_URL reaches Redis: `unix:` or a bare path is a unix socket. */
export function redisSocket(redisUrl: string): SocketType {
  return redisUrl.startsWith('/') || redisUrl.startsWith('unix:') ? 'unix' : 'tcp';
}

/** The model name of the first processor in /proc/cpuinfo ("unknown" elsewhere). */
export function cpuModel(cpuinfo: string): string {
  const line = cpuinfo.split('\n').find((text) => text.startsWith('model name'));
  return line?.slice(line.indexOf(':') + 1).trim() || 'unknown';
}

/** Redis's INFO reply ("key:value" lines under "# Section" headings) as a map. */
export function parseRedisInfo(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split('\n')) {
    const separator = line.indexOf(':');
    if (line.startsWith('#') || separator < 0) continue;
    fields.set(line.slice(0, separator), line.slice(separator + 1).trim());
  }
  return fields;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // not Linux
  }
}
