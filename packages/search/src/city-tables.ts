import type { CityTable, CountryCode } from '@directory/domain';
import type { IndexState } from './index-change-watch.js';
import { SETTLED_MAX_AGE_MS } from './search-request-cache.js';

/**
 * The typeahead's city tables, one per dataset (city-table.ts in the domain), kept in process and read
 * again on their own clock rather than at every change of the index: under steady ingest the index
 * changes every refresh, and reading a large dataset's spellings takes a few hundred milliseconds of
 * Elasticsearch's time.
 *
 * - No table yet: the keystroke waits for it to be read.
 * - Younger than `refreshMs`: used as it is.
 * - Older, and the index watch (index-change-watch.ts) has seen no change since it was read: used (up to
 *   `SETTLED_MAX_AGE_MS`, then read again in the background).
 * - Older, and the index may have changed: read again in the background while the old table answers, up
 *   to twice `refreshMs`; past that (no keystroke for a while) the keystroke waits for the new one.
 *
 * So a city's suggestion and its order are at most about twice `refreshMs` behind the index; with
 * `refreshMs` 0 a table is read again whenever the index may have changed, and every answer is exact.
 * Reads of one dataset never overlap; a failed read keeps nothing, and the next keystroke tries again.
 *
 * A keystroke waits for a read at most `waitMs`: past that, or if the read fails, it is answered without
 * cities while the read goes on (its own timeout is longer than a search's), so a slow first read of a
 * large dataset delays no keystroke and still completes.
 */
export type CityTableOptions = {
  /** How long a table is used as it is while the index changes (config SUGGEST_CITIES_REFRESH_MS). */
  refreshMs: number;
  /** The index watch; without one, the index may always have changed. */
  indexState?: () => IndexState;
  /** The longest a keystroke waits for a read (config ELASTICSEARCH_TIMEOUT_MS); none: until it ends. */
  waitMs?: number;
  /** The clock ages are measured on (tests); performance.now by default. */
  now?: () => number;
};

export type CityTables = {
  /**
   * The dataset's table, as fresh as the rules above ask; undefined when a read it waited for failed or
   * outlasted `waitMs`. Without `waitMs`, a failed read throws what `read` threw.
   */
  table(country: CountryCode): Promise<CityTable | undefined>;
};

/** When a table was read: when its first request was sent, and the index generation then (null: not settled). */
export type CityTableStamp = { readAt: number; generation: number | null };

export type CityTableAction = 'use' | 'use-and-read-again' | 'read-and-wait';

/** What a keystroke does with the dataset's table (pure: the rules above). */
export function cityTableAction(
  stamp: CityTableStamp | undefined,
  now: number,
  refreshMs: number,
  index: IndexState | undefined,
): CityTableAction {
  if (stamp === undefined) return 'read-and-wait';
  const age = now - stamp.readAt;
  if (age <= refreshMs) return 'use';
  const unchanged = index !== undefined && index.settled && index.generation === stamp.generation;
  if (unchanged) return age <= SETTLED_MAX_AGE_MS ? 'use' : 'use-and-read-again';
  return age <= 2 * refreshMs ? 'use-and-read-again' : 'read-and-wait';
}

export function createCityTables(
  read: (country: CountryCode) => Promise<CityTable>,
  options: CityTableOptions,
): CityTables {
  const now = options.now ?? (() => performance.now());
  const tables = new Map<CountryCode, { table: CityTable; stamp: CityTableStamp }>();
  const reading = new Map<CountryCode, Promise<CityTable>>();

  function readAgain(country: CountryCode): Promise<CityTable> {
    const running = reading.get(country);
    if (running !== undefined) return running;
    const index = options.indexState?.();
    const stamp = { readAt: now(), generation: index?.settled ? index.generation : null };
    const pending = read(country)
      .then((table) => {
        tables.set(country, { table, stamp });
        return table;
      })
      .finally(() => reading.delete(country));
    reading.set(country, pending);
    return pending;
  }

  async function waitFor(reading: Promise<CityTable>): Promise<CityTable | undefined> {
    if (options.waitMs === undefined) return reading;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), options.waitMs);
    });
    try {
      return await Promise.race([reading.catch(() => undefined), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async table(country) {
      const kept = tables.get(country);
      const action = cityTableAction(kept?.stamp, now(), options.refreshMs, options.indexState?.());
      if (kept === undefined || action === 'read-and-wait') return waitFor(readAgain(country));
      // A failed background read keeps the old table; the next keystroke tries again.
      if (action === 'use-and-read-again') readAgain(country).catch(() => undefined);
      return kept.table;
    },
  };
}
