// `npm run bench:scale-store -- --places N --events N [--seed S] [--threads N] [--drop-indexes] [--keep]`:
// builds a store of the given size in a database of its own with the bulk path (bench/scale-store.ts) and
// prints the rates, each phase's seconds, the tables' and indexes' sizes and the process's peak RSS, beside
// the machine and PostgreSQL settings. `--events` is a target: each place gets the extra recrawls that make
// about that many events for `--places` places. `--threads` (default: the cores Node may use) builds the
// slices in that many worker threads, 1 in the main thread; the store is the same whatever the number.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { peakResidentMegabytes } from '@directory/observability';
import { createBenchEnvironment, log } from './bench-environment.js';
import { describeMachine } from './machine.js';
import { buildScaleStore, extraRecrawlsFor } from './scale-store.js';

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '200000' },
    events: { type: 'string', default: '2000000' },
    seed: { type: 'string', default: '1' },
    threads: { type: 'string', default: String(availableParallelism()) },
    'drop-indexes': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const options = {
  places: Number(values.places),
  events: Number(values.events),
  seed: Number(values.seed),
  threads: Number(values.threads),
  extraRecrawlsPerPlace: extraRecrawlsFor(Number(values.events), Number(values.places)),
  dropIndexes: values['drop-indexes'],
};

const environment = await createBenchEnvironment('scale');
try {
  const machine = await describeMachine(environment);
  const memory = await sql<{
    setting: string;
  }>`select current_setting('maintenance_work_mem') as setting`.execute(environment.db);
  log(`${machine.block}\npostgresql maintenance_work_mem ${memory.rows[0]?.setting ?? '?'}`);
  log(`building: ${JSON.stringify(options)}`);
  const figures = await buildScaleStore(environment.databaseUrl, {
    ...options,
    siteOrigin: environment.config.SITE_ORIGIN,
  });
  const relations = await sql<{ table: string; name: string; bytes: string }>`
    select c.relname as table, c.relname as name, pg_total_relation_size(c.oid)::text as bytes
    from pg_class c where c.relname in ('events', 'places')
    union all
    select t.relname, i.relname, pg_relation_size(i.oid)::text
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
    where t.relname in ('events', 'places')
    order by 1, 2`.execute(environment.db);
  const bytesOf = (name: string): number =>
    Number(relations.rows.find((row) => row.name === name)?.bytes ?? 0);
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
  const totalSeconds =
    figures.loadSeconds + figures.commitSeconds + figures.indexSeconds + figures.vacuumSeconds;
  const lines = [
    `generated ${figures.generated} events: stored ${figures.storedEvents}, invalid ${figures.invalid}, ` +
      `duplicates ${figures.duplicates}; places ${figures.places} (served ${figures.servedPlaces})`,
    `load (generate + validate + fold + COPY events and places, concurrently): ${figures.loadSeconds.toFixed(1)} s, ` +
      `of which generate + fold in Node ${figures.generateFoldSeconds.toFixed(1)} s over ${figures.threads} ` +
      `thread(s); the writer waited ${figures.shardWaitSeconds.toFixed(1)} s for slices, ` +
      `${figures.copyWaitSeconds.toFixed(1)} s for COPY`,
    `  events: ${Math.round(figures.storedEvents / figures.loadSeconds)} rows/s, ` +
      `${mb(figures.eventBytes / figures.loadSeconds)} MB/s of COPY text (${mb(figures.eventBytes)} MB)`,
    `  places: ${Math.round(figures.places / figures.loadSeconds)} rows/s, ` +
      `${mb(figures.placeBytes / figures.loadSeconds)} MB/s of COPY text (${mb(figures.placeBytes)} MB)`,
    `commit: ${figures.commitSeconds.toFixed(1)} s; index rebuild: ${figures.indexSeconds.toFixed(1)} s ` +
      `(${options.dropIndexes ? 'indexes dropped during the load' : 'indexes kept during the load'}); ` +
      `vacuum analyze: ${figures.vacuumSeconds.toFixed(1)} s`,
    `total: ${totalSeconds.toFixed(1)} s`,
    ...relations.rows.map(
      (row) =>
        `  ${row.table === row.name ? `table ${row.name} (with indexes)` : `  index ${row.name}`}: ${mb(Number(row.bytes))} MB`,
    ),
    `bytes per event (events with indexes): ${Math.round(bytesOf('events') / figures.storedEvents)}; ` +
      `per place (places with indexes): ${Math.round(bytesOf('places') / figures.places)}`,
    `peak RSS: ${peakResidentMegabytes()} MB`,
  ];
  log(lines.join('\n'));
  if (values.keep) log(`kept database: ${environment.databaseUrl}`);
} finally {
  await (values.keep ? environment.release() : environment.cleanup());
}
