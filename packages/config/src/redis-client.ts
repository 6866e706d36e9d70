import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from './config.js';
import { FailoverFollowingSentinelConnector } from './sentinel-connector.js';

/**
 * Every Redis client of every process comes from here (docs/operations.md "Running at scale", Redis):
 * one server (REDIS_URL), a Redis Cluster (REDIS_CLUSTER_NODES) or a primary behind Sentinel
 * (REDIS_SENTINELS, REDIS_SENTINEL_MASTER). Either way the callers see one client type.
 */
export type RedisClient = Redis | Cluster;

type HostPort = { host: string; port: number };

export type RedisTopology =
  | { kind: 'standalone'; url: string }
  | { kind: 'cluster'; nodes: HostPort[]; password?: string }
  | { kind: 'sentinel'; sentinels: HostPort[]; master: string; password?: string };

/**
 * - `service`: a process that checks or writes keys (API, MCP, console, keys CLI) or probes readiness.
 *   A rate-limit, throttle or bar must not hold a request for long: a command gets one retry and a
 *   second at most (a paused or partitioned Redis keeps the connection open and never answers), and
 *   reconnects are tried every half second at most, so an outage is a 503 (or a CLI's error) within
 *   about two seconds (docs/operations.md, "Redis").
 * - `queue`: BullMQ's connection (queue, worker, producer): BullMQ requires `maxRetriesPerRequest:
 *   null` (a command waits for the reconnect instead of failing, its jobs' locks renew after it).
 * - `probe`: one look (the status command): connects when asked, one attempt, no reconnect, each
 *   command given up after `timeoutMs`.
 */
export type RedisFlavour = 'service' | 'queue' | 'probe';

export type RedisClientChoices = {
  autoPipelining?: boolean;
  /** The `probe` flavour's connect and command timeout (default REDIS_COMMAND_TIMEOUT_MS). */
  timeoutMs?: number;
};

export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** The topology the configuration names (the schema allows exactly one). */
export function redisTopology(config: Config): RedisTopology {
  const password = config.REDIS_PASSWORD === undefined ? {} : { password: config.REDIS_PASSWORD };
  if (config.REDIS_CLUSTER_NODES.length > 0) {
    return { kind: 'cluster', nodes: config.REDIS_CLUSTER_NODES.map(parseHostPort), ...password };
  }
  if (config.REDIS_SENTINELS.length > 0 && config.REDIS_SENTINEL_MASTER !== undefined) {
    return {
      kind: 'sentinel',
      sentinels: config.REDIS_SENTINELS.map(parseHostPort),
      master: config.REDIS_SENTINEL_MASTER,
      ...password,
    };
  }
  return { kind: 'standalone', url: config.REDIS_URL };
}

function parseHostPort(item: string): HostPort {
  const separator = item.lastIndexOf(':');
  return { host: item.slice(0, separator), port: Number(item.slice(separator + 1)) };
}

/**
 * BullMQ's key prefix. On a cluster every key of a queue must hash to one slot (its scripts touch
 * several), so the prefix is a hash tag there: `{directory}`. One server and Sentinel keep the plain
 * prefix, so an upgrade of such a deployment finds its queue where it left it.
 */
export function queuePrefix(config: Config): string {
  return redisTopology(config).kind === 'cluster' ? `{${config.REDIS_PREFIX}}` : config.REDIS_PREFIX;
}

/** The ioredis options of a flavour (pure: the unit specs check them). */
export function redisClientOptions(flavour: RedisFlavour, options: RedisClientChoices = {}): RedisOptions {
  const reconnect = {
    // A promoted replica answers READONLY until the client has found the new primary: reconnect, and
    // resend the command (it was refused, so it ran nowhere).
    reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
    enableAutoPipelining: options.autoPipelining ?? false,
  } satisfies RedisOptions;
  if (flavour === 'queue') return { ...reconnect, maxRetriesPerRequest: null };
  if (flavour === 'probe') {
    const timeoutMs = options.timeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    return {
      ...reconnect,
      lazyConnect: true,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    };
  }
  return {
    ...reconnect,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt: number) => Math.min(attempt * 50, 500),
  };
}

/** The cluster-wide options: slot maps refreshed quickly, redirections during a failover waited out briefly. */
export function clusterClientOptions(
  flavour: RedisFlavour,
  options: RedisClientChoices & { password?: string } = {},
): ClusterOptions {
  const redisOptions = {
    ...redisClientOptions(flavour, options),
    ...(options.password === undefined ? {} : { password: options.password }),
  };
  return {
    redisOptions,
    enableAutoPipelining: options.autoPipelining ?? false,
    // A command meeting CLUSTERDOWN, TRYAGAIN or a moved slot waits this long before its next try; a
    // service command gives up after maxRedirections tries (about 1.6 s: a 503), a queue's keeps going
    // through clusterRetryStrategy's reconnects.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    slotsRefreshTimeout: REDIS_COMMAND_TIMEOUT_MS,
    ...(flavour === 'probe'
      ? { lazyConnect: true, clusterRetryStrategy: () => null }
      : { clusterRetryStrategy: (attempt: number) => Math.min(attempt * 50, 500) }),
  };
}

/**
 * A new client for `config`'s topology. The caller owns it (`quit` when done). With Sentinel, the
 * client asks the sentinels for the primary and follows a failover: it drops its connection as soon as
 * a sentinel announces a new primary, which also ends its key-vouch generation (see
 * FailoverFollowingSentinelConnector for why not ioredis's own `failoverDetector`).
 */
export function createRedisClient(
  config: Config,
  flavour: RedisFlavour,
  options: RedisClientChoices = {},
): RedisClient {
  const topology = redisTopology(config);
  if (topology.kind === 'cluster') {
    return new Cluster(
      topology.nodes,
      clusterClientOptions(flavour, { ...options, ...passwordOf(topology) }),
    );
  }
  const clientOptions = redisClientOptions(flavour, options);
  if (topology.kind === 'sentinel') {
    return new Redis({
      ...clientOptions,
      sentinels: topology.sentinels,
      name: topology.master,
      Connector: FailoverFollowingSentinelConnector,
      ...passwordOf(topology),
    });
  }
  return new Redis(standaloneTarget(topology.url), clientOptions);
}

/**
 * What ioredis is given for one server: the URL as it is, or for `unix:///run/redis/redis.sock` the
 * socket's path (ioredis takes a path, not a unix: URL), a `?db=N` kept.
 */
export function standaloneTarget(url: string): string {
  if (!url.startsWith('unix:')) return url;
  const parsed = new URL(url);
  return decodeURIComponent(parsed.pathname) + parsed.search;
}

/**
 * BullMQ's connection for a queue, worker or producer: a `queue` client and the topology's queue
 * prefix. BullMQ leaves a client it is given open (its workers and event readers duplicate it for their
 * blocking reads, and close those): `close` it after the queues.
 */
export function createQueueConnection(config: Config): {
  queue: { connection: RedisClient; prefix: string };
  close: () => Promise<void>;
} {
  const connection = createRedisClient(config, 'queue');
  return {
    queue: { connection, prefix: queuePrefix(config) },
    close: async () => {
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

function passwordOf(topology: { password?: string }): { password?: string } {
  return topology.password === undefined ? {} : { password: topology.password };
}

/** The variable an operator set for the topology in use, for messages. */
export function redisSettingName(config: Config): string {
  const kind = redisTopology(config).kind;
  return kind === 'cluster' ? 'REDIS_CLUSTER_NODES' : kind === 'sentinel' ? 'REDIS_SENTINELS' : 'REDIS_URL';
}

/** Whether `client` is a Redis Cluster client (its events differ: see connectionGeneration in keys). */
export function isClusterClient(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

// Replies a server gives while it cannot serve (a failover, a resharding, a restart loading its data).
// MOVED and ASK reach a caller only from an auto-pipelined batch that met a slot map changing under it
// (ioredis follows them for single commands): the next command goes to the slot's new node.
const UNAVAILABLE_REPLY = /^(?:READONLY|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|NOREPLICAS|MOVED|ASK)\b/;
// ioredis's and rate-limiter-flexible's messages when no server answered (they export no classes).
const UNAVAILABLE_MESSAGE =
  /Connection is closed|Stream isn't writeable|Command timed out|Failed to refresh slots cache|Too many Cluster redirections|Cluster isn't ready|None of startup nodes is available|All sentinels are unreachable|Redis connection is not ready|connect ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH/;
const UNAVAILABLE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);

/**
 * Whether an error means Redis could not serve the command now: not reached, not answering in time,
 * or a server in a failover, a cluster without a quorum, a slot moving, a restart loading its data.
 * The callers fail closed (a 503 problem, a CLI's error) or retry (the worker's jobs).
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  return UNAVAILABLE_REPLY.test(error.message) || UNAVAILABLE_MESSAGE.test(error.message);
}
