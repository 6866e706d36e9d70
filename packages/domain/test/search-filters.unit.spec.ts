import { describe, expect, it } from 'vitest';
import { CURSOR_REASONS, decodeCursor, encodeCursor, filterFingerprint } from '../src/search/cursor.js';
import { SEARCH_DOCUMENT_MAPPING } from '../src/search/search-document.js';
import {
  FILTER_NAMES,
  SEARCH_FILTERS,
  filterDescriptions,
  filtersOf,
  type FilterName,
  type SearchFilters,
} from '../src/search/search-filters.js';
import {
  KNOWN_PARAMETERS,
  parseSearchParams,
  parseSearchToolInput,
  searchParamsSchema,
  searchToolInputSchema,
} from '../src/search/search-params.js';
import { buildSearchRequest } from '../src/search/search-query.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';

// Two different values of every filter (one for openNow, which only takes true); a filter added to the
// table without samples does not compile.
const SAMPLES: {
  [Name in FilterName]:
    [NonNullable<SearchFilters[Name]>, NonNullable<SearchFilters[Name]>] | [NonNullable<SearchFilters[Name]>];
} = {
  country: ['de', 'es'],
  city: ['berlin', 'san-sebastian'],
  q: ['praxis', 'zahnarzt'],
  whatsapp: [true, false],
  verified: [true, false],
  near: [
    { lat: 52.52, lon: 13.405 },
    { lat: 40.4168, lon: -3.7038 },
  ],
  radius: [5000, 20000],
  bbox: [
    { west: 13.3, south: 52.4, east: 13.5, north: 52.6 },
    { west: 177, south: -19, east: -178, north: -16 },
  ],
  specialty: ['dentistry', 'pediatrics'],
  openAt: ['2026-11-23T09:30:00+01:00', '2026-11-23T09:31:00+01:00'],
  openNow: [true],
  language: ['en', 'de'],
  acceptingNewPatients: [true, false],
  wheelchairAccessible: [true, false],
  insurance: ['gkv', 'sns'],
  updatedSince: ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.001Z'],
  observedSince: ['2026-09-01T00:00:00Z', '2026-09-01T00:00:00.001Z'],
};
// What openNow means, passed in as the edge would.
const REQUEST_TIME = new Date('2026-11-23T08:30:00Z');

// How a sample is written where it is not String(value) (query) or the value itself (tool): near is
// "lat,lng" text in both.
const pointText = (value: unknown): string => {
  const { lat, lon } = value as { lat: number; lon: number };
  return `${lat},${lon}`;
};
const boxText = (value: unknown): string => {
  const { west, south, east, north } = value as { west: number; south: number; east: number; north: number };
  return `${west},${south},${east},${north}`;
};
// `near` and `bbox` are text in both forms; the other filters are text only in a query string.
const asText = (name: FilterName, value: unknown): string | undefined =>
  name === 'near' ? pointText(value) : name === 'bbox' ? boxText(value) : undefined;
const queryText = (name: FilterName, value: unknown): string => asText(name, value) ?? String(value);
const toolValue = (name: FilterName, value: unknown): unknown => asText(name, value) ?? value;

// Filters that only apply along with another one (radius needs near) are tried with it.
const BASE_OF: Partial<Record<FilterName, SearchFilters>> = {
  radius: { country: 'de', near: { lat: 52.52, lon: 13.405 } },
};
const COUNTRY_ONLY: SearchFilters = { country: 'de' };

describe('the filter table: every declared filter is wired everywhere', () => {
  it('lists the filters in the order of the known-parameter list', () => {
    expect(FILTER_NAMES).toEqual([
      'country',
      'city',
      'q',
      'whatsapp',
      'verified',
      'near',
      'radius',
      'bbox',
      'specialty',
      'openAt',
      'openNow',
      'language',
      'acceptingNewPatients',
      'wheelchairAccessible',
      'insurance',
      'updatedSince',
      'observedSince',
    ]);
    expect(KNOWN_PARAMETERS).toEqual([
      ...FILTER_NAMES,
      'limit',
      'cursor',
      'sort',
      'count',
      'facets',
      'facetLimit',
      'suggestions',
    ]);
  });

  it('describes every filter for the API and tool texts; only country is required', () => {
    expect(filterDescriptions()).toEqual(
      FILTER_NAMES.map((name) => ({
        name,
        required: name === 'country',
        description: SEARCH_FILTERS[name].description,
      })),
    );
  });

  describe.each(FILTER_NAMES)('%s', (name) => {
    const [first, second] = SAMPLES[name];
    const definition = SEARCH_FILTERS[name];
    const BASE = BASE_OF[name] ?? COUNTRY_ONLY;
    const withValue = (filterName: FilterName, value: unknown): SearchFilters => ({
      ...BASE,
      [filterName]: value,
    });
    const rawBase = Object.fromEntries(
      Object.entries(BASE).map(([key, value]) => [key, queryText(key as FilterName, value)]),
    );
    const toolBase = Object.fromEntries(
      Object.entries(BASE).map(([key, value]) => [key, toolValue(key as FilterName, value)]),
    );
    // A geo search's cursor resumes after a distance, any other after a name.
    const after: [string | number, string] = withValue(name, first).near ? [1234.5, 'id'] : ['name', 'id'];

    it('is in both input schemas, described, and a known parameter', () => {
      expect(Object.keys(searchParamsSchema.shape)).toContain(name);
      expect(Object.keys(searchToolInputSchema.shape)).toContain(name);
      expect(searchParamsSchema.shape[name].description).toBe(definition.description);
      expect(searchToolInputSchema.shape[name].description).toBe(definition.description);
      expect(KNOWN_PARAMETERS).toContain(name);
    });

    it('is parsed from a query string and from tool arguments, and kept by filtersOf', () => {
      const fromQuery = parseSearchParams({ ...rawBase, [name]: queryText(name, first) });
      const fromTool = parseSearchToolInput({ ...toolBase, [name]: toolValue(name, first) });
      expect(fromQuery).toMatchObject({ ok: true, value: { [name]: first } });
      expect(fromTool).toMatchObject({ ok: true, value: { [name]: first } });
      expect(filtersOf({ ...withValue(name, first), limit: 5, cursor: 'c' })).toEqual(withValue(name, first));
    });

    it('binds the cursor: a cursor for one value is refused with another (or without the filter)', () => {
      const cursor = encodeCursor({ after, filters: withValue(name, first) }, SECRET);
      expect(decodeCursor(cursor, withValue(name, first), SECRET).ok).toBe(true);
      if (second !== undefined) {
        expect(filterFingerprint(withValue(name, first))).not.toBe(
          filterFingerprint(withValue(name, second)),
        );
        expect(decodeCursor(cursor, withValue(name, second), SECRET)).toEqual({
          ok: false,
          error: CURSOR_REASONS.differentFilters,
        });
      }
      if (name !== 'country') {
        expect(decodeCursor(cursor, BASE, SECRET)).toEqual({
          ok: false,
          error: CURSOR_REASONS.differentFilters,
        });
      }
    });

    it('changes the query, through its index field', () => {
      const query = (filters: SearchFilters) =>
        JSON.stringify(buildSearchRequest(filters, 10, undefined, REQUEST_TIME).query);
      if (second !== undefined)
        expect(query(withValue(name, first))).not.toBe(query(withValue(name, second)));
      if (name !== 'country') expect(query(withValue(name, first))).not.toBe(query(BASE));
      expect(query(withValue(name, first))).toContain(`"${definition.field}"`);
    });

    it('reads a field of the index mapping', () => {
      expect(Object.keys(SEARCH_DOCUMENT_MAPPING.properties)).toContain(definition.field);
      expect(definition.field).not.toBe('doctor');
    });
  });
});
