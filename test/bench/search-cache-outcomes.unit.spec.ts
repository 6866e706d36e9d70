import { describe, expect, it } from 'vitest';
import {
  addOutcomes,
  answeredShare,
  formatCacheOutcomes,
  outcomesBetween,
  parseCacheOutcomes,
} from '../../bench/search-cache-outcomes.js';

const METRICS = [
  '# HELP search_cache_requests_total Searches the directory asked Elasticsearch for, by outcome',
  '# TYPE search_cache_requests_total counter',
  'search_cache_requests_total{outcome="hit"} 41',
  'search_cache_requests_total{outcome="coalesced",service="api"} 3',
  'search_cache_requests_total{outcome="coalesced",service="mcp"} 2',
  'search_cache_requests_total{outcome="miss"} 54',
  'search_cache_requests_total_other{outcome="hit"} 1000',
  'search_cache_entries 12',
].join('\n');

describe('search cache outcomes', () => {
  it('reads the counters of a /metrics text, summed by outcome, and nothing else', () => {
    expect(parseCacheOutcomes(METRICS)).toEqual({ hit: 41, coalesced: 5, miss: 54 });
    expect(parseCacheOutcomes('search_cache_entries 0\n')).toEqual({});
  });

  it('takes what a phase added, and adds phases up', () => {
    const before = { hit: 10, miss: 20 };
    const after = { hit: 40, coalesced: 2, miss: 80 };
    const phase = outcomesBetween(before, after);
    expect(phase).toEqual({ hit: 30, coalesced: 2, miss: 60 });
    expect(addOutcomes([phase, { hit: 1, miss: 1 }, {}])).toEqual({ hit: 31, coalesced: 2, miss: 61 });
  });

  it('counts hits and coalesced waits as answered, and prints shares of all lookups', () => {
    const outcomes = { hit: 41, coalesced: 5, miss: 54 };
    expect(answeredShare(outcomes)).toBeCloseTo(0.46);
    expect(answeredShare({})).toBeNull();
    expect(formatCacheOutcomes(outcomes, 40)).toBe(
      '2.5 lookups a request: hit 41 %, coalesced 5 %, miss 54 %',
    );
    expect(formatCacheOutcomes({ miss: 0 }, 40)).toBeNull();
  });
});
