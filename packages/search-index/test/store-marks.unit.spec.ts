import { describe, expect, it } from 'vitest';
import {
  highWaterBulkLines,
  placeAheadReason,
  placesAheadOfStore,
  storeBehindIndex,
  STORE_BEHIND_REPAIR,
} from '../src/store-marks.js';

describe('placesAheadOfStore', () => {
  it("keeps only the places whose index version the store does not have (a concurrent worker's newer fold is fine)", () => {
    const conflicts = [
      { placeId: 'newer-fold', indexVersion: 5 },
      { placeId: 'lost-events', indexVersion: 5 },
      { placeId: 'lost-place', indexVersion: 2 },
    ];
    const store = new Map([
      ['newer-fold', 5],
      ['lost-events', 3],
    ]);
    expect(placesAheadOfStore(conflicts, store)).toEqual([
      { placeId: 'lost-events', indexVersion: 5, storeVersion: 3 },
      { placeId: 'lost-place', indexVersion: 2, storeVersion: 0 },
    ]);
  });
});

describe('storeBehindIndex', () => {
  it('is null while the store holds every position the index has seen', () => {
    expect(storeBehindIndex({ highWater: 0, behind: null }, 0)).toBeNull();
    expect(storeBehindIndex({ highWater: 120, behind: null }, 120)).toBeNull();
    expect(storeBehindIndex({ highWater: 120, behind: null }, 500)).toBeNull();
  });

  it('names the store going back in time and the repair when the index has seen more, to be kept', () => {
    const behind = storeBehindIndex({ highWater: 130, behind: null }, 120);
    expect(behind?.newlyFound).toBe(true);
    expect(behind?.reason).toContain('position 130');
    expect(behind?.reason).toContain("store's newest is 120");
    expect(behind?.message).toContain(STORE_BEHIND_REPAIR);
  });

  it('keeps a finding once made, even after the store has moved past the mark', () => {
    const kept = {
      reason: placeAheadReason({ placeId: 'pl_1', indexVersion: 5, storeVersion: 4 }),
      detectedAt: '2026-01-01T00:00:00.000Z',
    };
    const behind = storeBehindIndex({ highWater: 130, behind: kept }, 900);
    expect(behind?.newlyFound).toBe(false);
    expect(behind?.message).toContain('pl_1 at version 5, the store at 4');
    expect(behind?.message).toContain('2026-01-01T00:00:00.000Z');
    expect(behind?.message).toContain(STORE_BEHIND_REPAIR);
  });
});

describe('highWaterBulkLines', () => {
  it('writes the position as the external version of one document beside the alias', () => {
    const [action, source] = highWaterBulkLines('doctors', 42);
    expect(JSON.parse(action)).toEqual({
      index: { _index: 'doctors-store-marks', _id: 'high-water', version: 42, version_type: 'external' },
    });
    expect(source).toBe('{}');
  });
});
