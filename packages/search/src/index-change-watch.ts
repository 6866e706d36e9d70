import {
  isIndexNotFound,
  readIndexingStats,
  type IndexingStats,
  type SearchClient,
} from '@directory/search-index';

/**
 * Whether the documents behind the read alias can have changed since a moment: what lets the hot-query
 * cache keep an answer longer than one refresh interval without serving anything Elasticsearch itself
 * would no longer serve.
 *
 * A probe asks the cluster, every `probeIntervalMs`, for the alias's concrete indices with their uuids
 * and their primaries' indexing and deletion counts: every write (index, update, delete, tombstone) moves
 * a count, and a reindex's alias swap changes the index set. The fingerprint of that answer only changes
 * when the documents may have; a change bumps the generation. A write is searchable at most one refresh
 * interval after it happened, so once no change has been seen for that long, an answer sent to the
 * cluster reflects every write of its generation: it stays exactly what the cluster would answer until
 * the next probe sees a change (at most one probe interval after that write).
 *
 * Every doubt counts as a change: a failed probe bumps the generation when probes answer again (what
 * happened meanwhile is unknown), and while the last answered probe is older than two probe intervals
 * nothing is settled, so the cache falls back to its plain TTL.
 */
export type IndexState = {
  /** Moves whenever the documents behind the alias may have changed (or the watch lost track of them). */
  generation: number;
  /** Every change seen is searchable by now, and the watch is current: answers of this generation stay exact. */
  settled: boolean;
};

export type IndexChangeWatch = {
  state: () => IndexState;
  /** Stops probing (process shutdown). */
  close: () => void;
};

export type WatchTimings = {
  probeIntervalMs: number;
  /** The index refresh interval: how long after a write it may stay invisible to searches. */
  refreshIntervalMs: number;
};

/** What the watch remembers between probes (pure, so the rules are tested without a cluster). */
export type WatchMemory = {
  generation: number;
  /** The last answered probe's fingerprint; null before the first and after a failed probe. */
  fingerprint: string | null;
  /** When the probe that first saw the current generation answered (the write came before that). */
  changedAt: number;
  /** When the last answered probe was sent; null before the first. */
  confirmedAt: number | null;
};

export const INITIAL_WATCH_MEMORY: WatchMemory = {
  generation: 0,
  fingerprint: null,
  changedAt: Number.NEGATIVE_INFINITY,
  confirmedAt: null,
};

/**
 * The memory after a probe sent at `sentAt` answered `fingerprint` at `answeredAt`, or failed (null).
 * The cluster read its counts somewhere between the two, so each end is taken on the safe side: no
 * change is confirmed only up to when the probe was sent, and a change happened before it answered.
 */
export function observeProbe(
  memory: WatchMemory,
  fingerprint: string | null,
  sentAt: number,
  answeredAt: number,
): WatchMemory {
  if (fingerprint === null) return { ...memory, fingerprint: null };
  if (fingerprint === memory.fingerprint) return { ...memory, confirmedAt: sentAt };
  return { generation: memory.generation + 1, fingerprint, changedAt: answeredAt, confirmedAt: sentAt };
}

export function indexStateAt(memory: WatchMemory, now: number, timings: WatchTimings): IndexState {
  const current =
    memory.fingerprint !== null &&
    memory.confirmedAt !== null &&
    now - memory.confirmedAt <= 2 * timings.probeIntervalMs;
  return {
    generation: memory.generation,
    settled: current && now - memory.changedAt > timings.refreshIntervalMs,
  };
}

export function fingerprintOf(stats: IndexingStats): string {
  return Object.entries(stats.indices ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, index]) => {
      const indexing = index.primaries?.indexing;
      return `${name}/${index.uuid ?? '?'}/${indexing?.index_total ?? '?'}/${indexing?.delete_total ?? '?'}`;
    })
    .join(',');
}

export function watchIndexChanges(options: {
  client: SearchClient;
  alias: string;
  timings: WatchTimings;
  now?: () => number;
}): IndexChangeWatch {
  const { client, alias, timings } = options;
  const now = options.now ?? (() => performance.now());
  let memory = INITIAL_WATCH_MEMORY;
  let probing = false;

  async function probe(): Promise<void> {
    if (probing) return;
    probing = true;
    const sentAt = now();
    try {
      const stats = await readIndexingStats(client, alias, timings.probeIntervalMs * 2);
      memory = observeProbe(memory, fingerprintOf(stats), sentAt, now());
    } catch (error) {
      // No index behind the alias yet is a state like any other (nothing is served).
      // Anything else (timeout, cluster down) is a doubt: the cache falls back to its TTL. The readiness
      // check and the search path report an outage; a probe adds nothing to that.
      memory = observeProbe(memory, isIndexNotFound(error) ? 'no index' : null, sentAt, now());
    } finally {
      probing = false;
    }
  }

  void probe();
  const timer = setInterval(() => void probe(), timings.probeIntervalMs);
  timer.unref();
  return {
    state: () => indexStateAt(memory, now(), timings),
    close: () => clearInterval(timer),
  };
}
