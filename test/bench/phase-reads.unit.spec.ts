import { describe, expect, it } from 'vitest';
import { describeReads, diskReadBytes, relationReadBytes } from '../../bench/phase-reads.js';

describe('diskReadBytes', () => {
  it('adds the sectors read of whole disks only, 512 bytes each', () => {
    const diskstats = [
      '   7       0 loop0 10 0 4000 0 0 0 0 0 0 0 0 0 0 0 0 0 0',
      ' 252       0 vda 900 12 2000 300 50 0 800 20 0 100 320 0 0 0 0 0 0',
      ' 252       1 vda1 800 10 1500 250 40 0 700 10 0 90 260 0 0 0 0 0 0',
      ' 259       0 nvme0n1 5 0 64 1 0 0 0 0 0 1 1 0 0 0 0 0 0',
      '',
    ].join('\n');
    expect(diskReadBytes(diskstats, new Set(['vda', 'nvme0n1']))).toBe((2000 + 64) * 512);
    expect(diskReadBytes(diskstats, new Set())).toBe(0);
  });
});

describe('relationReadBytes and describeReads', () => {
  it('turns block counts into bytes per table part, and a phase into its change', () => {
    const before = {
      diskBytes: 1e9,
      relationBytes: relationReadBytes([
        { relname: 'events', heap: '100', indexes: '10', toast: null },
        { relname: 'places', heap: '5', indexes: '1', toast: '2' },
      ]),
    };
    expect(before.relationBytes.get('events heap')).toBe(100 * 8192);
    expect(before.relationBytes.get('events TOAST')).toBe(0);
    const after = {
      diskBytes: 3.5e9,
      relationBytes: relationReadBytes([
        { relname: 'events', heap: String(100 + 244_141), indexes: '10', toast: null },
        { relname: 'places', heap: '5', indexes: '1', toast: String(2 + 122_071) },
      ]),
    };
    expect(describeReads(before, after)).toBe(
      'read from disk 2.5 GB; PostgreSQL read into its buffers: events heap 2.0 GB · events indexes 0.0 GB · ' +
        'events TOAST 0.0 GB · places heap 0.0 GB · places indexes 0.0 GB · places TOAST 1.0 GB',
    );
    expect(describeReads({ ...before, diskBytes: undefined }, after)).toMatch(/^read from disk unknown;/);
  });
});
