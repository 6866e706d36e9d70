import { describe, expect, it } from 'vitest';
import {
  deletableLeftovers,
  leaseIsLive,
  lockHeldMessage,
  renewedLease,
  requiredHealth,
  type ReindexLease,
} from '../src/reindex-guard.js';

const NOW = new Date('2026-11-27T00:00:00Z');
const lease = (index: string, expiresInMs: number): ReindexLease => ({
  holder: 'ops-1 pid 4242',
  index,
  startedAt: '2026-11-26T23:50:00.000Z',
  expiresAt: new Date(NOW.getTime() + expiresInMs).toISOString(),
});

describe('reindex guard: the health the swap waits for', () => {
  it('asks for green when the index has replicas, yellow when it has none', () => {
    expect(requiredHealth('auto', 1)).toBe('green');
    expect(requiredHealth('auto', 2)).toBe('green');
    expect(requiredHealth('auto', 0)).toBe('yellow');
  });

  it('takes an explicit setting as it is', () => {
    expect(requiredHealth('yellow', 1)).toBe('yellow');
    expect(requiredHealth('green', 0)).toBe('green');
  });
});

describe('reindex guard: the lease', () => {
  it('is live until its expiry, not at or after it', () => {
    expect(leaseIsLive(lease('a', 1), NOW)).toBe(true);
    expect(leaseIsLive(lease('a', 0), NOW)).toBe(false);
    expect(leaseIsLive(lease('a', -60_000), NOW)).toBe(false);
  });

  it('is renewed to expire a lease length from now, keeping who holds it and since when', () => {
    const renewed = renewedLease(
      { holder: 'h', index: 'doctors__x', startedAt: '2026-11-26T23:00:00.000Z' },
      NOW,
      60_000,
    );
    expect(renewed).toEqual({
      holder: 'h',
      index: 'doctors__x',
      startedAt: '2026-11-26T23:00:00.000Z',
      expiresAt: '2026-11-27T00:01:00.000Z',
    });
  });

  it('is named in the refusal: who, what, since when, and how to break it', () => {
    const message = lockHeldMessage(lease('doctors__20261126t235000000z', 42_000), NOW);
    expect(message).toContain('ops-1 pid 4242');
    expect(message).toContain('building doctors__20261126t235000000z');
    expect(message).toContain('since 2026-11-26T23:50:00.000Z');
    expect(message).toContain('expires in 42 s');
    expect(message).toContain('--break-lock');
  });
});

describe('reindex guard: leftovers', () => {
  const indices = ['doctors__1', 'doctors__2', 'doctors__3'];

  it('are the indices the alias does not serve', () => {
    expect(deletableLeftovers(indices, ['doctors__2'], undefined, NOW)).toEqual(['doctors__1', 'doctors__3']);
  });

  it('never include the index a live lease says another run is building', () => {
    expect(deletableLeftovers(indices, ['doctors__2'], lease('doctors__3', 30_000), NOW)).toEqual([
      'doctors__1',
    ]);
  });

  it('include the index of a run whose lease expired (it crashed)', () => {
    expect(deletableLeftovers(indices, ['doctors__2'], lease('doctors__3', -1), NOW)).toEqual([
      'doctors__1',
      'doctors__3',
    ]);
  });

  it('never include a served index, whatever the lease says', () => {
    expect(deletableLeftovers(indices, indices, lease('doctors__9', -1), NOW)).toEqual([]);
  });
});
