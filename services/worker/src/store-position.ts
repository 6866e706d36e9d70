import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '@directory/database';
import { readStoreBehindIndex } from '@directory/ingest';
import type { PlaceAheadOfStore, SearchClient } from '@directory/search-index';

export type StorePositionWatch = ReturnType<typeof watchStorePosition>;

/**
 * Whether the store went back in time behind the index (see `store-marks.ts`), as a readiness check: a
 * worker that folded new events onto a store missing older ones would only add wrong 409s, so it takes
 * no jobs until `npm run reindex -- --replay` has rebuilt the index from the store. Also the series
 * `directory_store_behind_index` (1 while so) and an error log line when a write finds a place ahead.
 */
export function watchStorePosition(deps: {
  db: Database;
  search: { client: SearchClient; alias: string };
  logger: Logger;
  /** Less than the readiness timeout: a look that takes longer is left unanswered, not failed. */
  timeoutMs: number;
}) {
  let behind: string | null = null;
  return {
    check: {
      name: 'store-position',
      check: async () => {
        // Only a finding fails this check: a store or index that does not answer is the postgresql and
        // elasticsearch checks' to report, and the last finding stands meanwhile.
        const reason = await withinTimeout(readStoreBehindIndex(deps.db, deps.search), deps.timeoutMs).catch(
          () => undefined,
        );
        if (reason === undefined) {
          if (behind !== null) throw new Error(behind);
          return;
        }
        if (reason !== null && behind === null) deps.logger.error({ reason }, 'store is behind the index');
        behind = reason;
        if (reason !== null) throw new Error(reason);
      },
    },
    placesAhead: (places: ReadonlyArray<PlaceAheadOfStore>) => {
      deps.logger.error(
        { places: places.length, first: places[0] },
        'the index holds places at versions the store does not have: the store went back in time',
      );
    },
    register: (registry: Registry) =>
      new Gauge({
        name: 'directory_store_behind_index',
        help: 'Is 1 while the index reflects events the store no longer has (a failover that lost commits): npm run reindex -- --replay',
        registers: [registry],
        collect() {
          this.set(behind === null ? 0 : 1);
        },
      }),
  };
}

/** The answer of `work`, or undefined when it takes longer than `ms` (it is left to finish). */
async function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
