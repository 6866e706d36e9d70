import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import {
  clusterClientOptions,
  isRedisUnavailableError,
  queuePrefix,
  redisClientOptions,
  redisSettingName,
  redisTopology,
  standaloneTarget,
} from '../src/redis-client.js';

function problemsOf(environment: Record<string, string>): Array<{ variable: string; reason: string }> {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('Redis topology settings', () => {
  it('is one server at REDIS_URL by default, with the plain queue prefix', () => {
    const config = loadConfig({});
    expect(redisTopology(config)).toEqual({ kind: 'standalone', url: 'redis://127.0.0.1:6379' });
    expect(queuePrefix(config)).toBe('directory');
    expect(redisSettingName(config)).toBe('REDIS_URL');
  });

  it('reads a cluster from REDIS_CLUSTER_NODES; its queue prefix is a hash tag', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: '10.0.0.5:7000, redis-b.internal:7001',
      REDIS_PASSWORD: 'not-logged',
    });
    expect(redisTopology(config)).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.5', port: 7000 },
        { host: 'redis-b.internal', port: 7001 },
      ],
      password: 'not-logged',
    });
    expect(queuePrefix(config)).toBe('{directory}');
    expect(redisSettingName(config)).toBe('REDIS_CLUSTER_NODES');
  });

  it('reads Sentinel from REDIS_SENTINELS and REDIS_SENTINEL_MASTER', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '127.0.0.1:26379',
      REDIS_SENTINEL_MASTER: 'directory-main',
    });
    expect(redisTopology(config)).toEqual({
      kind: 'sentinel',
      sentinels: [{ host: '127.0.0.1', port: 26379 }],
      master: 'directory-main',
    });
    expect(queuePrefix(config)).toBe('directory');
  });

  it('reaches a local server over its unix socket: ioredis is given the path', () => {
    const config = loadConfig({ REDIS_URL: 'unix:///run/redis/redis.sock' });
    expect(redisTopology(config)).toEqual({ kind: 'standalone', url: 'unix:///run/redis/redis.sock' });
    expect(standaloneTarget('unix:///run/redis/redis.sock')).toBe('/run/redis/redis.sock');
    expect(standaloneTarget('unix:///var/run/my%20redis/redis.sock?db=2')).toBe(
      '/var/run/my redis/redis.sock?db=2',
    );
    expect(standaloneTarget('redis://10.0.0.5:6379/1')).toBe('redis://10.0.0.5:6379/1');
    expect(standaloneTarget('rediss://cache.internal:6380')).toBe('rediss://cache.internal:6380');
  });

  it('refuses a unix: URL that names a host or no socket file', () => {
    for (const url of ['unix://redis-host/run/redis.sock', 'unix://', 'unix:///', 'unix:///run/redis/'])
      expect(
        problemsOf({ REDIS_URL: url }).map((problem) => problem.variable),
        url,
      ).toEqual(['REDIS_URL']);
    expect(problemsOf({ REDIS_URL: 'http://127.0.0.1:6379' })[0]?.reason).toMatch(
      /redis: or rediss: or unix:/,
    );
  });

  it('refuses two topologies at once, naming the variables', () => {
    const problems = problemsOf({ REDIS_URL: 'redis://10.0.0.5:6379', REDIS_CLUSTER_NODES: '10.0.0.5:7000' });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.variable).toBe('REDIS_URL, REDIS_CLUSTER_NODES');
    expect(problems[0]?.reason).toMatch(/choose one Redis topology/);
    expect(
      problemsOf({ REDIS_CLUSTER_NODES: 'a:1', REDIS_SENTINELS: 'b:2', REDIS_SENTINEL_MASTER: 'm' }),
    ).toEqual([expect.objectContaining({ variable: 'REDIS_CLUSTER_NODES, REDIS_SENTINELS' })]);
  });

  it('wants the sentinels and the primary name together', () => {
    expect(problemsOf({ REDIS_SENTINELS: '127.0.0.1:26379' }).map((problem) => problem.variable)).toEqual([
      'REDIS_SENTINEL_MASTER',
    ]);
    expect(
      problemsOf({ REDIS_SENTINEL_MASTER: 'directory-main' }).map((problem) => problem.variable),
    ).toEqual(['REDIS_SENTINELS']);
  });

  it('refuses node lists that are not host:port', () => {
    for (const nodes of ['10.0.0.5', 'redis://10.0.0.5:7000', '10.0.0.5:0', '10.0.0.5:70000'])
      expect(problemsOf({ REDIS_CLUSTER_NODES: nodes }).map((problem) => problem.variable)).toEqual([
        'REDIS_CLUSTER_NODES',
      ]);
  });
});

describe('Redis client flavours', () => {
  it('fails service commands fast and lets BullMQ wait (maxRetriesPerRequest null)', () => {
    expect(redisClientOptions('service')).toMatchObject({ maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    expect(redisClientOptions('queue').maxRetriesPerRequest).toBeNull();
    expect(redisClientOptions('queue').commandTimeout).toBeUndefined();
    expect(redisClientOptions('probe', { timeoutMs: 300 })).toMatchObject({
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      commandTimeout: 300,
    });
  });

  it('gives cluster nodes the same flavour, and the password', () => {
    const options = clusterClientOptions('queue', { password: 'p' });
    expect(options.redisOptions).toMatchObject({ maxRetriesPerRequest: null, password: 'p' });
    expect(clusterClientOptions('service').redisOptions?.maxRetriesPerRequest).toBe(1);
  });

  it('reconnects (and resends) on READONLY only: a demoted primary', () => {
    const reconnect = redisClientOptions('service').reconnectOnError;
    expect(reconnect?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(reconnect?.(new Error('ERR wrong number of arguments'))).toBe(false);
  });
});

describe('isRedisUnavailableError', () => {
  // What ioredis rejects with for an error reply (its ReplyError, untyped in its declarations).
  const serverReply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
  const named = (name: string, message: string) => Object.assign(new Error(message), { name });

  it.each([
    ["READONLY You can't write against a read only replica."],
    ['CLUSTERDOWN The cluster is down'],
    ['TRYAGAIN Multiple keys request during rehashing of slot'],
    ['MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no'],
    ['LOADING Redis is loading the dataset in memory'],
    ['NOREPLICAS Not enough good replicas to write.'],
    ['MOVED 9567 127.0.0.1:44577'],
    ['ASK 411 127.0.0.1:42981'],
  ])('a server that cannot serve now: %s', (message) => {
    expect(isRedisUnavailableError(serverReply(message))).toBe(true);
  });

  it.each([
    ['Connection is closed.'],
    ["Stream isn't writeable and enableOfflineQueue options is false"],
    ['Command timed out'],
    ['Failed to refresh slots cache.'],
    ['Too many Cluster redirections. Last error: Error: Connection is closed.'],
    ["Cluster isn't ready and enableOfflineQueue options is false"],
    ['None of startup nodes is available'],
    ['All sentinels are unreachable. Retrying from scratch after 10ms.'],
    ['Redis connection is not ready'],
    ['connect ECONNREFUSED 127.0.0.1:6379'],
  ])('no server reached: %s', (message) => {
    expect(isRedisUnavailableError(new Error(message))).toBe(true);
  });

  it('knows ioredis errors by name', () => {
    expect(isRedisUnavailableError(named('ClusterAllFailedError', 'Failed to refresh slots cache.'))).toBe(
      true,
    );
    expect(isRedisUnavailableError(named('MaxRetriesPerRequestError', 'Reached the max retries'))).toBe(true);
  });

  it('leaves our own mistakes and non-errors alone', () => {
    expect(isRedisUnavailableError(serverReply('ERR wrong number of arguments for command'))).toBe(false);
    expect(
      isRedisUnavailableError(serverReply("CROSSSLOT Keys in request don't hash to the same slot")),
    ).toBe(false);
    expect(isRedisUnavailableError(serverReply('NOSCRIPT No matching script.'))).toBe(false);
    expect(isRedisUnavailableError(new Error('a message mentioning READONLY later on'))).toBe(false);
    expect(isRedisUnavailableError('Connection is closed.')).toBe(false);
    expect(isRedisUnavailableError(undefined)).toBe(false);
  });
});
