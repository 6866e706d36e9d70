import { describe, expect, it } from 'vitest';
import { formatSettings, isPgPreset, pgPreset, settingsArguments } from '../../bench/pg-preset.js';

const GIB = 1024 ** 3;
const valueOf = (settings: ReturnType<typeof pgPreset>, name: string) =>
  settings.find((setting) => setting.name === name)?.value;

describe('PostgreSQL presets of the ingest soak', () => {
  it('keeps durability on in both presets', () => {
    for (const name of ['defaults', 'tuned'] as const) {
      const settings = pgPreset(name, { memoryBytes: 24 * GIB });
      expect(valueOf(settings, 'fsync')).toBe('on');
      expect(valueOf(settings, 'synchronous_commit')).toBe('on');
      expect(valueOf(settings, 'full_page_writes')).toBe('on');
    }
  });

  it('names PostgreSQL’s shipped values in defaults, whatever the machine', () => {
    const settings = pgPreset('defaults', { memoryBytes: 64 * GIB });
    expect(valueOf(settings, 'shared_buffers')).toBe('128MB');
    expect(valueOf(settings, 'max_wal_size')).toBe('1GB');
    expect(valueOf(settings, 'checkpoint_timeout')).toBe('5min');
    expect(valueOf(settings, 'wal_compression')).toBe('off');
    expect(valueOf(settings, 'effective_io_concurrency')).toBe('1');
  });

  it('sizes tuned to the machine: a quarter of RAM in shared_buffers, at most 8 GB', () => {
    const small = pgPreset('tuned', { memoryBytes: 24 * GIB });
    expect(valueOf(small, 'shared_buffers')).toBe('6144MB');
    expect(valueOf(small, 'effective_cache_size')).toBe('18432MB');
    expect(valueOf(small, 'max_wal_size')).toBe('16GB');
    expect(valueOf(small, 'wal_compression')).toBe('lz4');
    expect(valueOf(small, 'effective_io_concurrency')).toBe('32');
    expect(valueOf(pgPreset('tuned', { memoryBytes: 256 * GIB }), 'shared_buffers')).toBe('8192MB');
  });

  it('turns settings into -c arguments, one pair each, in order', () => {
    expect(
      settingsArguments([
        { name: 'fsync', value: 'on', why: 'x' },
        { name: 'shared_buffers', value: '128MB', why: 'y' },
      ]),
    ).toEqual(['-c', 'fsync=on', '-c', 'shared_buffers=128MB']);
    const settings = pgPreset('tuned', { memoryBytes: 24 * GIB });
    expect(settingsArguments(settings)).toHaveLength(settings.length * 2);
  });

  it('prints one aligned line per setting with its reason', () => {
    const lines = formatSettings([
      { name: 'fsync', value: 'on', why: 'durability' },
      { name: 'max_wal_size', value: '16GB', why: 'fewer checkpoints' },
    ]);
    expect(lines).toEqual([
      '  fsync = on           (durability)',
      '  max_wal_size = 16GB  (fewer checkpoints)',
    ]);
  });

  it('knows its preset names only', () => {
    expect(isPgPreset('tuned')).toBe(true);
    expect(isPgPreset('defaults')).toBe(true);
    expect(isPgPreset('fast')).toBe(false);
  });
});
