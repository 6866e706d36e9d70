import { expect } from 'vitest';
import { createRedisClient, loadConfig } from '@directory/config';
import { barRedisKey, vouchRedisKey } from '@directory/keys';
import { assertNoServerErrors, eventually, type ResponseTally } from '@directory/testing';

// What the Redis Cluster and Sentinel failover scenarios share: a keyed search's status, the worst state replication can leave on a promoted node, and the checks after a failover.

/** Quotas no scenario's load reaches: a refusal is then the key's, never a rate limit's. */
export const FAILOVER_QUOTA = 1_000_000;

/**
 * What the scenarios' processes run with besides the topology: no REDIS_URL beside it (one topology),
 * batches small enough to be cut by the failover, and ops ports of their own.
 */
export const FAILOVER_PROCESS_ENV = {
  REDIS_URL: '',
  INGEST_BATCH_SIZE: '100',
  RATE_LIMIT_MAX: String(FAILOVER_QUOTA),
  ACCOUNT_RATE_LIMIT_MAX: String(FAILOVER_QUOTA),
  API_OPS_PORT: '0',
  WORKER_OPS_PORT: '0',
};

/** One keyed search of the API at `base`. */
export function keyedSearch(base: string, secret: string): Promise<Response> {
  return fetch(`${base}/api/v1/doctors?country=de&limit=1`, {
    headers: { 'x-api-key': secret },
    signal: AbortSignal.timeout(10_000),
  });
}

/** The status of one keyed search of the API at `base` (its body discarded). */
export async function searchStatus(base: string, secret: string): Promise<number> {
  const response = await keyedSearch(base, secret);
  await response.body?.cancel();
  return response.status;
}

/**
 * Replication is asynchronous: a promoted node may hold a key's vouch from before its revoke and no bar.
 * That worst case is written into the node at `port` directly (a client of the topology may still be
 * reconnecting, which is not what the scenarios are about).
 */
export async function stageStaleVouch(
  port: number,
  prefix: string,
  keyId: string,
  staleVouch: string | null,
): Promise<void> {
  const promoted = createRedisClient(loadConfig({ REDIS_URL: `redis://127.0.0.1:${port}` }), 'service');
  try {
    await promoted.set(vouchRedisKey(prefix, keyId), staleVouch ?? '');
    await promoted.del(barRedisKey(prefix, keyId));
  } finally {
    promoted.disconnect();
  }
}

/** The first status other than a 503 that `status` reads within 30 s: what a client meets once Redis is reached. */
export async function firstAnswerOtherThan503(status: () => Promise<number>): Promise<number> {
  let last = 503;
  await eventually(
    async () => {
      last = await status();
      return last !== 503;
    },
    30_000,
    'the API to answer other than 503 (Redis reached)',
  );
  return last;
}

/**
 * Stops the load once searches are answered again after the failover, and checks what it met meanwhile:
 * only 200s and 503 problems. `serverErrors` says what a 500 was made of, for the failure's message.
 */
export async function stopLoadAfterFailover(
  load: { tally: ResponseTally; stop: () => Promise<ResponseTally> },
  serverErrors: () => string = () => '',
): Promise<ResponseTally> {
  const answeredBefore = load.tally.byStatus.get(200) ?? 0;
  await eventually(
    () => Promise.resolve((load.tally.byStatus.get(200) ?? 0) > answeredBefore),
    30_000,
    'searches to be answered after the failover',
  );
  const tally = await load.stop();
  console.info('searches during the failover, by status:', Object.fromEntries(tally.byStatus));
  expect(tally.unacceptable, serverErrors()).toEqual([]);
  assertNoServerErrors(tally);
  expect([...tally.byStatus.keys()].every((status) => status === 200 || status === 503)).toBe(true);
  return tally;
}
