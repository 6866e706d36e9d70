import { describe, expect, it } from 'vitest';
import { planShards, shardSeed } from '../../bench/scale-store-shard.js';

describe('planShards', () => {
  it('cuts the events into slices of the given size, the last one the rest, numbered in order', () => {
    const shards = planShards({ events: 1_250, places: 125, seed: 9, shardEvents: 500 });
    expect(shards.map((shard) => shard.index)).toEqual([0, 1, 2]);
    expect(shards.map((shard) => shard.events)).toEqual([500, 500, 250]);
  });

  it('shares the places out in proportion to the events, summing to the limit', () => {
    const shards = planShards({ events: 1_000, places: 100, seed: 9, shardEvents: 300 });
    expect(shards.map((shard) => shard.places)).toEqual([30, 30, 30, 10]);
    const odd = planShards({ events: 1_000, places: 7, seed: 9, shardEvents: 300 });
    expect(odd.reduce((sum, shard) => sum + shard.places, 0)).toBe(7);
  });

  it('sets no place limit when the places cannot bind (a place takes one event at least)', () => {
    const shards = planShards({ events: 900, places: 900, seed: 9, shardEvents: 300 });
    expect(shards.every((shard) => shard.places === Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it("gives the first slice the store's seed and the others distinct seeds, the same on every call", () => {
    const shards = planShards({ events: 5_000, places: 500, seed: 42, shardEvents: 500 });
    expect(shards[0]?.seed).toBe(42);
    expect(new Set(shards.map((shard) => shard.seed)).size).toBe(shards.length);
    expect(planShards({ events: 5_000, places: 500, seed: 42, shardEvents: 500 })).toEqual(shards);
    expect(shardSeed(43, 1)).not.toBe(shardSeed(42, 1));
  });

  it('plans a store of one slice as the plain run and no slice for no events', () => {
    expect(planShards({ events: 800, places: 80, seed: 3, shardEvents: 1_000 })).toEqual([
      { index: 0, seed: 3, events: 800, places: 80 },
    ]);
    expect(planShards({ events: 0, places: 0, seed: 3 })).toEqual([]);
  });

  it('refuses a slice size that is not a positive whole number', () => {
    expect(() => planShards({ events: 10, places: 1, seed: 1, shardEvents: 0 })).toThrow(RangeError);
    expect(() => planShards({ events: 10, places: 1, seed: 1, shardEvents: 1.5 })).toThrow(RangeError);
  });
});
