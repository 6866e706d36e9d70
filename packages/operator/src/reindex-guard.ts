import type { REINDEX_HEALTH_SETTINGS } from '@directory/config';

// The reindex's pure decisions: which health the new index must reach before the swap, whether another
// run's lease is still live, and which `<alias>__*` indices are leftovers that may be deleted.

/** The lock document a running reindex keeps (and renews) while it builds `index`. */
export type ReindexLease = {
  /** Who runs it: host name and process id, for the refusal message. */
  holder: string;
  /** The index the run is building. */
  index: string;
  startedAt: string;
  /** Renewed by the run's heartbeat; past it, the run is presumed dead and the lease may be taken. */
  expiresAt: string;
};

export type HealthSetting = (typeof REINDEX_HEALTH_SETTINGS)[number];
export type HealthStatus = 'green' | 'yellow';

/**
 * The health to wait for before the swap. Green means every replica is assigned, so losing a node right
 * after the swap loses no shard; a cluster with fewer nodes than copies can never be green, so `auto`
 * asks for green only when the index has replicas (a one-node development cluster with replicas 0 is
 * green; with replicas ≥ 1 it stays yellow, and the operator must say `yellow` to accept that).
 */
export function requiredHealth(setting: HealthSetting, replicas: number): HealthStatus {
  if (setting !== 'auto') return setting;
  return replicas > 0 ? 'green' : 'yellow';
}

export function leaseIsLive(lease: ReindexLease, now: Date): boolean {
  return Date.parse(lease.expiresAt) > now.getTime();
}

/** A lease that expires `leaseMs` from now, for a run that started at `startedAt`. */
export function renewedLease(
  lease: Omit<ReindexLease, 'expiresAt'>,
  now: Date,
  leaseMs: number,
): ReindexLease {
  return { ...lease, expiresAt: new Date(now.getTime() + leaseMs).toISOString() };
}

/**
 * The `<alias>__*` indices that may be deleted as leftovers of interrupted runs: not served by the
 * alias, and not the index a live lease says another run is building.
 */
export function deletableLeftovers(
  indices: ReadonlyArray<string>,
  served: ReadonlyArray<string>,
  lease: ReindexLease | undefined,
  now: Date,
): string[] {
  const building = lease && leaseIsLive(lease, now) ? lease.index : undefined;
  return indices.filter((index) => !served.includes(index) && index !== building);
}

/** What a second run says when it finds the lock held. */
export function lockHeldMessage(lease: ReindexLease, now: Date): string {
  const seconds = Math.max(0, Math.round((Date.parse(lease.expiresAt) - now.getTime()) / 1000));
  return (
    `another reindex is running: ${lease.holder}, building ${lease.index}, since ${lease.startedAt} ` +
    `(its lease expires in ${seconds} s unless renewed). Wait for it to finish; if that run crashed, ` +
    'rerun once its lease has expired, or now with --break-lock.'
  );
}
