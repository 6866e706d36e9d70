import type { ApiKeyMode } from '@directory/domain';

/**
 * What bounds exports (docs/api.md "Exports", "Limits"), so that no account can pin the database, the
 * pool or the export slots of every other account:
 * - at once per process, live and sandbox (`dk_test_`) keys apart, so sandbox exports never take a
 *   live slot (a process-local count: it bounds this process's own work);
 * - at once per account and key mode across every process (leases in Redis, see export-leases.ts);
 * - the longest one response streams: it then ends with a resumable trailer;
 * - the longest a client may take no bytes at all: the connection is then cut (resume it).
 */
export type ExportLimits = {
  /** config EXPORTS_MAX_CONCURRENT and EXPORTS_MAX_CONCURRENT_TEST. */
  maxConcurrent: Readonly<Record<ApiKeyMode, number>>;
  /** config EXPORTS_MAX_PER_ACCOUNT: per key mode, over every API process. */
  maxPerAccount: number;
  /** config EXPORTS_MAX_DURATION_MS: after it the export ends at its next page, resumable. */
  maxDurationMs: number;
  /** How long a client may read no byte before its export is cut (and its slots freed). */
  stallLimitMs: number;
  /** The length of an export's Redis lease, renewed every third of it while the export runs. */
  leaseMs: number;
};

/**
 * The configuration's defaults (.env.example). Two per account, so a client whose connection dropped
 * unseen (no FIN reached the server) can resume at once instead of waiting for the stall limit to
 * free its slot. The stall limit is the idle limit exports always had.
 */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  maxConcurrent: { live: 8, test: 4 },
  maxPerAccount: 2,
  maxDurationMs: 600_000,
  stallLimitMs: 120_000,
  leaseMs: 30_000,
};

/** This process's export slots per key mode. */
export type ProcessSlots = {
  /** Takes a slot of `mode`; false when all are in use. */
  take: (mode: ApiKeyMode) => boolean;
  free: (mode: ApiKeyMode) => void;
};

export function createProcessSlots(maxConcurrent: Readonly<Record<ApiKeyMode, number>>): ProcessSlots {
  const streaming: Record<ApiKeyMode, number> = { live: 0, test: 0 };
  return {
    take: (mode) => {
      if (streaming[mode] >= maxConcurrent[mode]) return false;
      streaming[mode] += 1;
      return true;
    },
    free: (mode) => {
      streaming[mode] = Math.max(0, streaming[mode] - 1);
    },
  };
}

const RESUME_HOW = 'with resume (the Export-Resume header) and after (the last id received)';

/** What an export's end checks know, between two pages. */
export type ExportProgress = { startedAt: number; leaseHeld: boolean };

/**
 * Why a running export must end at this page boundary (its trailer then says `complete: false` with
 * this reason), or undefined to go on.
 */
export function exportEndReason(
  progress: ExportProgress,
  limits: Pick<ExportLimits, 'maxDurationMs'>,
  now: number,
): string | undefined {
  if (now - progress.startedAt >= limits.maxDurationMs) {
    return `this response reached the longest an export streams (${durationText(limits.maxDurationMs)}); resume it now ${RESUME_HOW}`;
  }
  if (!progress.leaseHeld) return `this export's slot could not be renewed; resume it ${RESUME_HOW}`;
  return undefined;
}

/** Whether a client that last took bytes at `lastProgressAt` has stalled past the limit. */
export function exportStalled(
  lastProgressAt: number,
  limits: Pick<ExportLimits, 'stallLimitMs'>,
  now: number,
): boolean {
  return now - lastProgressAt >= limits.stallLimitMs;
}

/** Whole seconds a refused client waits: at least one, never less than `ms`. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function durationText(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${Math.ceil(ms / 1000)} seconds`;
}
