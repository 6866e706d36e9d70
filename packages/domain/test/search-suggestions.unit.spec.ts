import { describe, expect, it } from 'vitest';
import {
  buildNearbyCitiesRequest,
  buildRadiusRingsRequest,
  buildTermSuggestRequest,
  citySuggestion,
  correctedQuery,
  needsSuggestions,
  radiusSuggestion,
  widerRadii,
} from '../src/search/search-suggestions.js';
import type { SearchFilters } from '../src/search/search-filters.js';

const BERLIN = { lat: 52.52, lon: 13.405 };

describe('zero-result suggestions', () => {
  it('are computed only when asked, on an empty first page', () => {
    expect(needsSuggestions({ suggestions: true }, 0)).toBe(true);
    expect(needsSuggestions({ suggestions: true }, 1)).toBe(false);
    expect(needsSuggestions({ suggestions: true, cursor: 'c' }, 0)).toBe(false);
    expect(needsSuggestions({}, 0)).toBe(false);
  });

  it('correct only the words the index does not hold, folded, and ask nothing of short words', () => {
    expect(buildTermSuggestRequest('Dr. Zahnärtz')?.suggest.words.text).toBe('dr zahnartz');
    expect(buildTermSuggestRequest('dr ab')).toBeNull();
    const suggest = {
      words: [
        { text: 'dr', options: [] },
        { text: 'zahnartz', options: [{ text: 'zahnarzt' }] },
      ],
    };
    expect(correctedQuery('Dr. Zahnärtz', suggest)).toBe('dr zahnarzt');
    expect(correctedQuery('Dr. Zahnarzt', { words: [{ text: 'zahnarzt', options: [] }] })).toBeNull();
    expect(correctedQuery('zahnarzt', undefined)).toBeNull();
  });

  it('widen the radius to the smallest larger step that finds records, in one request', () => {
    const filters: SearchFilters = { country: 'de', near: BERLIN, radius: 10_000 };
    expect(widerRadii(filters)).toEqual([25_000, 50_000]);
    expect(widerRadii({ country: 'de', near: BERLIN })).toEqual([25_000, 50_000]);
    expect(widerRadii({ country: 'de', near: BERLIN, radius: 50_000 })).toEqual([]);
    const body = buildRadiusRingsRequest({ ...filters, radius: 1_500 }, {}, undefined);
    expect(body?.size).toBe(0);
    expect(JSON.stringify(body?.query)).toContain('"distance":"50000m"');
    expect(body?.aggs.rings.geo_distance.ranges.map((ring) => ring.to)).toEqual([
      2_000, 5_000, 10_000, 25_000, 50_000,
    ]);
    expect(buildRadiusRingsRequest({ country: 'de' }, {}, undefined)).toBeNull();
    expect(buildRadiusRingsRequest({ ...filters, radius: 50_000 }, {}, undefined)).toBeNull();
    const rings = (counts: number[]) => ({
      rings: {
        buckets: counts.map((count, index) => ({ key: String([25_000, 50_000][index]), doc_count: count })),
      },
    });
    expect(radiusSuggestion(rings([0, 4]))).toEqual({ kind: 'radius', radius: 50_000, resultCount: 4 });
    expect(radiusSuggestion(rings([1, 4]))).toEqual({ kind: 'radius', radius: 25_000, resultCount: 1 });
    expect(radiusSuggestion(rings([0, 0]))).toBeNull();
  });

  it('name the nearest other city with matches, measured from the asked city', () => {
    const filters: SearchFilters = { country: 'de', city: 'muenchen', q: 'zahnarzt' };
    const body = buildNearbyCitiesRequest(filters, {}, undefined);
    // The search without its city; the asked city (by each of its names) measured apart.
    expect(JSON.stringify(body?.query)).not.toContain('citySlug');
    expect(JSON.stringify(body?.query)).toContain('zahnarzt');
    expect(JSON.stringify(body?.aggs.asked)).toContain('"muenchen"');
    expect(buildNearbyCitiesRequest({ country: 'de' }, {}, undefined)).toBeNull();
    const city = (key: string, lat: number, count: number) => ({
      key,
      doc_count: count,
      centre: { location: { lat, lon: 11.5 }, count },
      name: { buckets: [{ key: key.toUpperCase() }] },
    });
    const aggregations = {
      cities: { buckets: [city('berlin', 52.5, 40), city('muenchen', 48.1, 2), city('augsburg', 48.4, 3)] },
      asked: { city: { centre: { location: { lat: 48.14, lon: 11.58 }, count: 9 } } },
    };
    expect(citySuggestion(filters, aggregations)).toEqual({
      kind: 'city',
      city: 'augsburg',
      name: 'AUGSBURG',
      resultCount: 3,
    });
    // An asked city without a located record: nothing to measure from.
    expect(
      citySuggestion(filters, { ...aggregations, asked: { city: { centre: { count: 0 } } } }),
    ).toBeNull();
    expect(citySuggestion(filters, { asked: aggregations.asked })).toBeNull();
  });
});
