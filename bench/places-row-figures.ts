// The figures of `npm run bench:places-row`: what the worker's control updates (the append's stream
// version bump, markProjected, clearProjectionFailures) cost PostgreSQL on the wide `places` row against
// the same logical updates on a narrow control table, per 1,000 places updated.
import { figure, formatFigure, roundedRange, type Figure } from './rounds.js';

/** WAL an executed statement wrote, as EXPLAIN (ANALYZE, WAL) reports it on the top plan node. */
export type WalUsage = { records: number; fpi: number; bytes: number };

export const NO_WAL: WalUsage = { records: 0, fpi: 0, bytes: 0 };

export function addWal(total: WalUsage, usage: WalUsage): WalUsage {
  return {
    records: total.records + usage.records,
    fpi: total.fpi + usage.fpi,
    bytes: total.bytes + usage.bytes,
  };
}

/**
 * The WAL usage in the result of `explain (analyze, wal, format json)`: one row whose `QUERY PLAN` is a
 * one-element array; the top node's counters include its children's. A plan without them wrote nothing.
 */
export function walUsageOfExplain(rows: ReadonlyArray<unknown>): WalUsage {
  const plan = (rows[0] as { 'QUERY PLAN'?: Array<{ Plan?: Record<string, unknown> }> } | undefined)?.[
    'QUERY PLAN'
  ]?.[0]?.Plan;
  if (plan === undefined) throw new Error('not the result of explain (format json)');
  const count = (key: string) => (typeof plan[key] === 'number' ? plan[key] : 0);
  return { records: count('WAL Records'), fpi: count('WAL FPI'), bytes: count('WAL Bytes') };
}

/** One side's measured run. */
export type SideRun = {
  /** Place rows updated by the timed passes (each pass updates every place once per statement). */
  placeUpdates: number;
  /** CPU of the bench's own PostgreSQL backend over the timed passes (utime + stime). */
  cpuSeconds: number;
  wallSeconds: number;
  /** The extra pass run under EXPLAIN (ANALYZE, WAL): its place updates and the WAL they wrote. */
  walPass: { placeUpdates: number; wal: WalUsage };
  /** Row updates of the side's table in the timed passes, and how many of them were HOT. */
  rowUpdates: number;
  hotUpdates: number;
  /** A plain VACUUM of the side's table after its passes: the cleanup its dead row versions cost. */
  vacuumCpuSeconds: number;
};

export type SideFigures = {
  cpuMsPer1000: Figure;
  wallMsPer1000: Figure;
  walBytesPer1000: Figure;
  walRecordsPer1000: Figure;
  walFpiPer1000: Figure;
  vacuumCpuMsPer1000: Figure;
  hotShare: Figure;
};

function perThousand(value: number, places: number): number {
  if (places <= 0) throw new Error('no places updated');
  return (value / places) * 1_000;
}

export function sideFigures(runs: ReadonlyArray<SideRun>): SideFigures {
  return {
    cpuMsPer1000: figure(runs.map((run) => perThousand(run.cpuSeconds * 1_000, run.placeUpdates))),
    wallMsPer1000: figure(runs.map((run) => perThousand(run.wallSeconds * 1_000, run.placeUpdates))),
    walBytesPer1000: figure(runs.map((run) => perThousand(run.walPass.wal.bytes, run.walPass.placeUpdates))),
    walRecordsPer1000: figure(
      runs.map((run) => perThousand(run.walPass.wal.records, run.walPass.placeUpdates)),
    ),
    walFpiPer1000: figure(runs.map((run) => perThousand(run.walPass.wal.fpi, run.walPass.placeUpdates))),
    // The vacuum cleans the versions of the timed passes and of the WAL pass alike.
    vacuumCpuMsPer1000: figure(
      runs.map((run) =>
        perThousand(run.vacuumCpuSeconds * 1_000, run.placeUpdates + run.walPass.placeUpdates),
      ),
    ),
    hotShare: figure(runs.map((run) => (run.rowUpdates === 0 ? 0 : run.hotUpdates / run.rowUpdates))),
  };
}

/** narrow ÷ wide of each round's value, paired by round (both sides ran in every round). */
export function ratioFigure(narrow: ReadonlyArray<number>, wide: ReadonlyArray<number>): Figure {
  if (narrow.length !== wide.length) throw new Error('sides ran a different number of rounds');
  return figure(narrow.map((value, index) => (wide[index] === 0 ? 0 : value / (wide[index] as number))));
}

export function describeSide(name: string, figures: SideFigures): string {
  return (
    `${name}: per 1,000 places · backend cpu ${formatFigure(figures.cpuMsPer1000, 1, 'ms')} · ` +
    `wall ${formatFigure(figures.wallMsPer1000, 1, 'ms')} · wal ${formatFigure(figures.walBytesPer1000, 0, 'B')} ` +
    `(${formatFigure(figures.walRecordsPer1000, 0)} records, ${formatFigure(figures.walFpiPer1000, 1)} full pages) · ` +
    `vacuum cpu ${formatFigure(figures.vacuumCpuMsPer1000, 1, 'ms')} · hot ${formatFigure(figures.hotShare, 2)}`
  );
}

/** The JSON line's figures of a side: medians, with their ranges. */
export function sideJson(figures: SideFigures): Record<string, number | [number, number]> {
  const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
  return {
    cpu_ms_per_1000_places: round(figures.cpuMsPer1000.median, 2),
    cpu_ms_per_1000_places_range: roundedRange(figures.cpuMsPer1000, 2),
    wall_ms_per_1000_places: round(figures.wallMsPer1000.median, 2),
    wall_ms_per_1000_places_range: roundedRange(figures.wallMsPer1000, 2),
    wal_bytes_per_1000_places: Math.round(figures.walBytesPer1000.median),
    wal_bytes_per_1000_places_range: roundedRange(figures.walBytesPer1000, 0),
    wal_fpi_per_1000_places: round(figures.walFpiPer1000.median, 2),
    vacuum_cpu_ms_per_1000_places: round(figures.vacuumCpuMsPer1000.median, 2),
    hot_share: round(figures.hotShare.median, 3),
  };
}
