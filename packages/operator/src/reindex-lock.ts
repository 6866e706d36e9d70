import { hostname } from 'node:os';
import type { SearchClient } from '@directory/search-index';
import { leaseIsLive, lockHeldMessage, renewedLease, type ReindexLease } from './reindex-guard.js';

/**
 * One reindex at a time per alias: a lease document in a small index of its own, created with
 * `op_type: create` (only one run can create it), renewed by a heartbeat and compared-and-swapped on
 * every write (`if_seq_no`/`if_primary_term`), so a run that lost it (its lease expired while it was
 * paused, or an operator broke it) finds out at its next renewal and never swaps the alias. It lives in
 * Elasticsearch, not PostgreSQL: what it protects is the alias, and a session-bound PostgreSQL lock
 * would not survive a transaction-mode pooler.
 */
export class ReindexLockedError extends Error {
  override name = 'ReindexLockedError';
  constructor(
    readonly lease: ReindexLease,
    now: Date,
  ) {
    super(lockHeldMessage(lease, now));
  }
}

/** This run's lease was taken over or broken: it must not swap the alias. */
export class ReindexLockLostError extends Error {
  override name = 'ReindexLockLostError';
}

export type ReindexLock = {
  lease: ReindexLease;
  /** The lease this run replaced: an expired one, or one broken with `breakLock`. */
  replaced: ReindexLease | undefined;
  /** Renews the lease now; throws `ReindexLockLostError` if another run holds it. */
  confirm: () => Promise<void>;
  /** Stops the heartbeat and deletes the lease if it is still this run's. Never throws. */
  release: () => Promise<void>;
};

const LOCK_ID = 'reindex';
/** A takeover can race another takeover; bounded, then the winner is named. */
const ACQUIRE_ATTEMPTS = 3;

export function lockIndexName(alias: string): string {
  return `${alias}-reindex-lock`;
}

type Stored = { lease: ReindexLease; seqNo: number; primaryTerm: number };

export async function readReindexLease(
  client: SearchClient,
  alias: string,
): Promise<ReindexLease | undefined> {
  return (await readStored(client, alias))?.lease;
}

async function readStored(client: SearchClient, alias: string): Promise<Stored | undefined> {
  const response = await client.get<ReindexLease>(
    { index: lockIndexName(alias), id: LOCK_ID },
    { ignore: [404] },
  );
  if (!response.found || !response._source) return undefined;
  return { lease: response._source, seqNo: response._seq_no ?? 0, primaryTerm: response._primary_term ?? 0 };
}

async function ensureLockIndex(client: SearchClient, alias: string): Promise<void> {
  const index = lockIndexName(alias);
  if (await client.indices.exists({ index })) return;
  try {
    // A copy on every node (up to three): the lock must stay readable when a node is lost.
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, auto_expand_replicas: '0-2' },
      mappings: { dynamic: false, properties: {} },
    });
  } catch (error) {
    if (errorType(error) !== 'resource_already_exists_exception') throw error;
  }
}

export async function acquireReindexLock(
  client: SearchClient,
  alias: string,
  options: {
    index: string;
    leaseMs: number;
    heartbeatMs: number;
    breakLock?: boolean;
    now?: () => Date;
  },
): Promise<ReindexLock> {
  const now = options.now ?? (() => new Date());
  const index = lockIndexName(alias);
  await ensureLockIndex(client, alias);
  const base = {
    holder: `${hostname()} pid ${process.pid}`,
    index: options.index,
    startedAt: now().toISOString(),
  };
  let replaced: ReindexLease | undefined;
  if (options.breakLock) {
    replaced = await readReindexLease(client, alias);
    await client.delete({ index, id: LOCK_ID }, { ignore: [404] });
  }

  let held: Stored | undefined;
  for (let attempt = 1; !held; attempt += 1) {
    const lease = renewedLease(base, now(), options.leaseMs);
    try {
      held = { lease, ...position(await client.create({ index, id: LOCK_ID, document: lease })) };
      break;
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
    const current = await readStored(client, alias);
    if (current && (leaseIsLive(current.lease, now()) || attempt >= ACQUIRE_ATTEMPTS))
      throw new ReindexLockedError(current.lease, now());
    if (!current) {
      if (attempt >= ACQUIRE_ATTEMPTS) throw new Error(`could not take the reindex lock in ${index}`);
      continue;
    }
    // Expired: the run that held it is presumed dead. Take it over only if nobody else did meanwhile.
    try {
      const taken = await client.index({
        index,
        id: LOCK_ID,
        document: lease,
        if_seq_no: current.seqNo,
        if_primary_term: current.primaryTerm,
      });
      held = { lease, ...position(taken) };
      replaced = current.lease;
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
  }

  let state: Stored = held;
  const acquired = held;
  let lost: Error | undefined;
  const renewOnce = async () => {
    if (lost) throw lost;
    const lease = renewedLease(base, now(), options.leaseMs);
    try {
      const renewed = await client.index({
        index,
        id: LOCK_ID,
        document: lease,
        if_seq_no: state.seqNo,
        if_primary_term: state.primaryTerm,
      });
      state = { lease, ...position(renewed) };
    } catch (error) {
      // 409: another run took the lease over. A 404 cannot be told apart from an index error, so the
      // document is read: gone means broken.
      if (statusOf(error) === 409 || (statusOf(error) === 404 && !(await readStored(client, alias)))) {
        lost = new ReindexLockLostError(
          `this run's reindex lock (${index}) was taken over or broken by another run; not swapping the alias`,
        );
        throw lost;
      }
      throw error;
    }
  };
  // One renewal at a time: two in flight would carry the same sequence number, and the second would
  // look like a takeover.
  let renewing: Promise<void> = Promise.resolve();
  const renew = () => {
    const next = renewing.catch(() => undefined).then(renewOnce);
    renewing = next;
    return next;
  };
  // A failed renewal is retried at the next beat (a node may be lost for a few seconds); the lease is
  // long enough for several to fail, and `confirm` before the swap must succeed.
  const heartbeat = setInterval(() => void renew().catch(() => undefined), options.heartbeatMs);
  heartbeat.unref();

  return {
    lease: acquired.lease,
    replaced,
    confirm: renew,
    release: async () => {
      clearInterval(heartbeat);
      await renewing.catch(() => undefined);
      if (lost) return;
      await client
        .delete(
          { index, id: LOCK_ID, if_seq_no: state.seqNo, if_primary_term: state.primaryTerm },
          { ignore: [404, 409] },
        )
        .catch(() => undefined);
    },
  };
}

function position(written: { _seq_no?: number; _primary_term?: number }) {
  return { seqNo: written._seq_no ?? 0, primaryTerm: written._primary_term ?? 0 };
}

function statusOf(error: unknown): number | undefined {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode;
}

function errorType(error: unknown): string | undefined {
  return (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}
