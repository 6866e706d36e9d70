import { describe, expect, it } from 'vitest';
import { continuePruning, pruneCutoff } from '../src/retention.js';

describe('webhook delivery retention rules', () => {
  it('keeps deliveries made within the retention', () => {
    expect(pruneCutoff(new Date('2026-03-15T12:00:00.000Z'), 14).toISOString()).toBe(
      '2026-03-01T12:00:00.000Z',
    );
    expect(pruneCutoff(new Date('2026-03-15T12:00:00.000Z'), 1).toISOString()).toBe(
      '2026-03-14T12:00:00.000Z',
    );
  });

  it('deletes another batch only after a full one, and never past half the claim', () => {
    const run = { lastBatchRows: 1_000, batchSize: 1_000, elapsedMs: 1_000, claimMs: 600_000 };
    expect(continuePruning(run)).toBe(true);
    expect(continuePruning({ ...run, lastBatchRows: 999 })).toBe(false);
    expect(continuePruning({ ...run, lastBatchRows: 0 })).toBe(false);
    expect(continuePruning({ ...run, elapsedMs: 300_000 })).toBe(false);
    expect(continuePruning({ ...run, elapsedMs: 299_999 })).toBe(true);
  });
});
