// PostgreSQL settings a benchmark's private cluster runs with: `defaults` (what PostgreSQL ships) or
// `tuned` (sized to the machine, as docs/operations.md recommends for a large store). Both keep
// durability on, as production runs: the cost of the write-ahead log is part of what is measured.

export type PgPresetName = 'defaults' | 'tuned';
export const PG_PRESETS: ReadonlyArray<PgPresetName> = ['defaults', 'tuned'];

/** One server setting, passed as `-c name=value`, with why it has that value. */
export type PgSetting = { name: string; value: string; why: string };

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Durability as production has it: every commit flushed, every first touch after a checkpoint logged whole. */
const DURABILITY: ReadonlyArray<PgSetting> = [
  { name: 'fsync', value: 'on', why: 'durability as production' },
  { name: 'synchronous_commit', value: 'on', why: 'durability as production' },
  { name: 'full_page_writes', value: 'on', why: 'durability as production' },
];

/** A whole number of MB, the unit PostgreSQL's memory settings take without ambiguity. */
const megabytes = (bytes: number) => `${Math.max(1, Math.floor(bytes / MIB))}MB`;

export function isPgPreset(name: string): name is PgPresetName {
  return (PG_PRESETS as ReadonlyArray<string>).includes(name);
}

/**
 * The settings of a preset for a machine with `memoryBytes` of RAM. `defaults` names PostgreSQL 15's
 * shipped values explicitly, so a cluster whose initdb wrote others (Debian's does for some) still runs
 * with them.
 */
export function pgPreset(name: PgPresetName, machine: { memoryBytes: number }): PgSetting[] {
  if (name === 'defaults') {
    return [
      ...DURABILITY,
      { name: 'shared_buffers', value: '128MB', why: 'shipped default' },
      { name: 'effective_cache_size', value: '4GB', why: 'shipped default' },
      { name: 'maintenance_work_mem', value: '64MB', why: 'shipped default' },
      { name: 'effective_io_concurrency', value: '1', why: 'shipped default' },
      { name: 'max_wal_size', value: '1GB', why: 'shipped default' },
      { name: 'min_wal_size', value: '80MB', why: 'shipped default' },
      { name: 'checkpoint_timeout', value: '5min', why: 'shipped default' },
      { name: 'checkpoint_completion_target', value: '0.9', why: 'shipped default' },
      { name: 'wal_compression', value: 'off', why: 'shipped default' },
      { name: 'wal_buffers', value: '-1', why: 'shipped default (1/32 of shared_buffers, at most 16MB)' },
      { name: 'autovacuum_vacuum_insert_scale_factor', value: '0.2', why: 'shipped default' },
      { name: 'autovacuum_vacuum_cost_limit', value: '-1', why: 'shipped default (vacuum_cost_limit, 200)' },
    ];
  }
  // A quarter of RAM, at most 8 GB: beyond it the OS cache serves the rest as well, and a larger pool
  // makes each checkpoint longer to write.
  const sharedBuffers = Math.min(machine.memoryBytes / 4, 8 * GIB);
  return [
    ...DURABILITY,
    { name: 'shared_buffers', value: megabytes(sharedBuffers), why: 'a quarter of RAM, at most 8 GB' },
    {
      name: 'effective_cache_size',
      value: megabytes((machine.memoryBytes * 3) / 4),
      why: 'three quarters of RAM: the OS cache beside shared_buffers',
    },
    { name: 'maintenance_work_mem', value: '512MB', why: 'faster vacuums and index builds' },
    {
      name: 'effective_io_concurrency',
      value: '32',
      why: 'a replay page reads its events from blocks all over the table: prefetched, not one at a time',
    },
    {
      name: 'max_wal_size',
      value: '16GB',
      why: 'checkpoints by time, not by WAL volume: fewer full-page images',
    },
    { name: 'min_wal_size', value: '1GB', why: 'recycled WAL segments instead of new files' },
    {
      name: 'checkpoint_timeout',
      value: '15min',
      why: 'each page logged whole once per 15 min, not per 5; crash recovery stays minutes',
    },
    { name: 'checkpoint_completion_target', value: '0.9', why: 'checkpoint writes spread over the interval' },
    { name: 'wal_compression', value: 'lz4', why: 'full-page images compressed, cheap on CPU' },
    { name: 'wal_buffers', value: '64MB', why: 'a batch of inserts fits without early WAL writes' },
    {
      name: 'autovacuum_vacuum_insert_scale_factor',
      value: '0.2',
      why: 'default kept: insert-driven vacuums of an append-only table are rare and cheap',
    },
    {
      name: 'autovacuum_vacuum_cost_limit',
      value: '2000',
      why: 'a vacuum of a large table finishes before the next is due',
    },
  ];
}

/** The server's command-line arguments: `-c name=value` per setting. */
export function settingsArguments(settings: ReadonlyArray<PgSetting>): string[] {
  return settings.flatMap(({ name, value }) => ['-c', `${name}=${value}`]);
}

/** The settings as printed before a run: one aligned line each. */
export function formatSettings(settings: ReadonlyArray<PgSetting>): string[] {
  const width = Math.max(...settings.map(({ name, value }) => `${name} = ${value}`.length));
  return settings.map(({ name, value, why }) => `  ${`${name} = ${value}`.padEnd(width)}  (${why})`);
}
