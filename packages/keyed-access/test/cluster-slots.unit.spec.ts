import { createRequire } from 'node:module';
import { QueueKeys } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { loadConfig, queuePrefix } from '@directory/config';
import { INGEST_QUEUE_NAME } from '@directory/ingest';
import { barRedisKey, vouchRedisKey } from '@directory/keys';
import { accountCounterRedisKey, rateLimitRedisKey, usageRedisKeys } from '../src/index.js';

// ioredis's own slot function (a dependency of ioredis, without types of its own).
const calculateSlot = createRequire(import.meta.url)('cluster-key-slot') as (key: string) => number;

/** The distinct cluster slots of the keys one script call (or MULTI) touches. */
const slotsOf = (keys: string[]) => new Set(keys.map((key) => calculateSlot(key)));

const PREFIX = 'directory';
const KEY_IDS = ['0b7c6f3e-2a7d-4a53-9a1e-5f0c2d9e8b11', 'f2d1c0b9-8a7e-4d6c-b5a4-9382716a5b4c'];
const ACCOUNT_ID = '5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716';

describe('every Redis script touches one cluster slot', () => {
  it.each(KEY_IDS)('the key admission: vouch and key counter (key %s)', (keyId) => {
    expect(slotsOf([vouchRedisKey(PREFIX, keyId), rateLimitRedisKey(PREFIX, keyId)]).size).toBe(1);
  });

  it.each(KEY_IDS)('the vouch and the bar scripts: bar and vouch (key %s)', (keyId) => {
    expect(slotsOf([barRedisKey(PREFIX, keyId), vouchRedisKey(PREFIX, keyId)]).size).toBe(1);
  });

  it('spreads keys over the cluster: different keys, different tags', () => {
    const [first = '', second = ''] = KEY_IDS;
    expect(calculateSlot(vouchRedisKey(PREFIX, first))).not.toBe(
      calculateSlot(vouchRedisKey(PREFIX, second)),
    );
  });

  it("the account's count and each give-back: one key per call", () => {
    expect(slotsOf([accountCounterRedisKey(PREFIX, { accountId: ACCOUNT_ID, mode: 'live' })]).size).toBe(1);
  });

  it('taking a usage batch, and removing it: shared hash, flag, batch set and batch', () => {
    const keys = usageRedisKeys(PREFIX);
    const batch = keys.batch('6a4f1e0c-3b2d-4c1a-8e9f-0d7c6b5a4938');
    expect(slotsOf([keys.pending, keys.due, keys.batches, batch]).size).toBe(1);
    expect(slotsOf([batch, keys.batches]).size).toBe(1);
  });

  it("BullMQ's ingest queue on a cluster: every queue key and job key in the prefix's slot", () => {
    const prefix = queuePrefix(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' }));
    const queueKeys = Object.values(new QueueKeys(prefix).getKeys(INGEST_QUEUE_NAME));
    const jobKey = new QueueKeys(prefix).toKey(INGEST_QUEUE_NAME, '42');
    expect(queueKeys.length).toBeGreaterThan(10);
    expect(slotsOf([...queueKeys, jobKey, `${jobKey}:lock`])).toEqual(new Set([calculateSlot(PREFIX)]));
  });

  it('the plain queue prefix of one server would spread the queue (why a cluster needs the tag)', () => {
    const queueKeys = Object.values(new QueueKeys(PREFIX).getKeys(INGEST_QUEUE_NAME));
    expect(slotsOf(queueKeys).size).toBeGreaterThan(1);
  });
});
