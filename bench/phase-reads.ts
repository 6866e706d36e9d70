import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '@directory/database';

// Where a phase's reads came from, once the store outgrows memory: what the machine read from its disks,
// and what PostgreSQL read into its buffers for each part of the two large tables (from the OS cache or
// from the disk; PostgreSQL cannot tell which). Both are counters since start; a phase is their change.

/** Bytes read so far: from the machine's disks, and by PostgreSQL per table part (`events heap`, …). */
export type ReadsSnapshot = { diskBytes: number | undefined; relationBytes: Map<string, number> };

const SECTOR_BYTES = 512; // /proc/diskstats counts 512-byte sectors whatever the device's own size
export const BLOCK_BYTES = 8192; // PostgreSQL's BLCKSZ

/**
 * Bytes read from whole disks in a /proc/diskstats text ("major minor name reads merged sectors …").
 * Partitions and device-mapper volumes are left out (`disks` names the whole disks), or their reads would
 * count twice.
 */
export function diskReadBytes(diskstats: string, disks: ReadonlySet<string>): number {
  let sectors = 0;
  for (const line of diskstats.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length > 5 && disks.has(fields[2] ?? '')) sectors += Number(fields[5]) || 0;
  }
  return sectors * SECTOR_BYTES;
}

/** The machine's whole disks: /sys/block without loop, RAM and device-mapper devices. */
function wholeDisks(): Set<string> {
  return new Set(readdirSync('/sys/block').filter((name) => !/^(?:loop|ram|zram|dm-)/.test(name)));
}

function machineDiskReadBytes(): number | undefined {
  try {
    return diskReadBytes(readFileSync('/proc/diskstats', 'utf8'), wholeDisks());
  } catch {
    return undefined; // not Linux
  }
}

type StatioRow = {
  relname: string;
  heap: string | null;
  indexes: string | null;
  toast: string | null;
};

/** PostgreSQL's block reads into its buffers for `events` and `places`, by part, in bytes. */
export function relationReadBytes(rows: ReadonlyArray<StatioRow>): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const row of rows) {
    bytes.set(`${row.relname} heap`, Number(row.heap ?? 0) * BLOCK_BYTES);
    bytes.set(`${row.relname} indexes`, Number(row.indexes ?? 0) * BLOCK_BYTES);
    bytes.set(`${row.relname} TOAST`, Number(row.toast ?? 0) * BLOCK_BYTES);
  }
  return bytes;
}

export async function snapshotReads(db: Database): Promise<ReadsSnapshot> {
  const result = await sql<StatioRow>`
    select relname, heap_blks_read::text as heap, idx_blks_read::text as indexes,
           (coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0))::text as toast
    from pg_statio_user_tables where relname in ('events', 'places') order by relname`.execute(db);
  return { diskBytes: machineDiskReadBytes(), relationBytes: relationReadBytes(result.rows) };
}

/** Bytes as the benches print a read: decimal gigabytes, one decimal. */
export function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

/** One line: the machine's disk reads and PostgreSQL's reads per table part between two snapshots. */
export function describeReads(before: ReadsSnapshot, after: ReadsSnapshot): string {
  const disk =
    before.diskBytes === undefined || after.diskBytes === undefined
      ? 'unknown'
      : gigabytes(after.diskBytes - before.diskBytes);
  const parts = [...after.relationBytes]
    .map(([part, bytes]) => `${part} ${gigabytes(bytes - (before.relationBytes.get(part) ?? 0))}`)
    .join(' · ');
  return `read from disk ${disk}; PostgreSQL read into its buffers: ${parts}`;
}
