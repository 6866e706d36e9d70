import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, filterFingerprint } from '../src/search/cursor.js';
import { OPEN_AT_REASON, canonicalInstant } from '../src/requests/instant-text.js';
import { OPEN_NOW_REASON, openAtClause } from '../src/search/open-at.js';
import { parseSearchParams, parseSearchToolInput } from '../src/search/search-params.js';
import { buildSearchRequest, filteredQueryOf } from '../src/search/search-query.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';
const REQUEST_TIME = new Date('2026-11-23T08:30:00Z'); // Monday 09:30 in Berlin
const MONDAY_0930 = 9 * 60 + 30;

describe('openAt and openNow parameters', () => {
  it('accepts ISO 8601 instants with an offset or Z, with or without seconds', () => {
    for (const openAt of [
      '2026-11-23T09:30:00+01:00',
      '2026-11-23T09:30+01:00',
      '2026-11-23T08:30:00Z',
      '2026-11-23T08:30Z',
      '2026-11-23T08:30:00.250Z',
      '2026-11-23T03:30:00-05:00',
    ]) {
      expect(parseSearchParams({ country: 'de', openAt })).toEqual({
        ok: true,
        value: { country: 'de', openAt, limit: 25 },
      });
    }
  });

  it('refuses anything that is not an instant, naming openAt', () => {
    for (const openAt of [
      '',
      'now',
      '2026-11-23',
      '2026-11-23T09:30:00', // a wall-clock time: whose?
      '2026-11-23 09:30:00Z',
      '2026-11-23T09:30:00+0100',
      '2026-11-23T09:30:00+01',
      '2026-02-30T09:30:00Z',
      '2026-11-23T24:00:00Z',
      '2026-11-23T09:60:00Z',
      '1795426200000',
    ]) {
      expect(parseSearchParams({ country: 'de', openAt })).toEqual({
        ok: false,
        error: [{ parameter: 'openAt', reason: OPEN_AT_REASON }],
      });
    }
    expect(parseSearchToolInput({ country: 'de', openAt: 1795426200000 })).toEqual({
      ok: false,
      error: [{ parameter: 'openAt', reason: OPEN_AT_REASON }],
    });
  });

  it('takes openNow=true only', () => {
    expect(parseSearchParams({ country: 'de', openNow: 'true' })).toEqual({
      ok: true,
      value: { country: 'de', openNow: true, limit: 25 },
    });
    expect(parseSearchToolInput({ country: 'de', openNow: true })).toMatchObject({
      ok: true,
      value: { openNow: true },
    });
    for (const openNow of ['false', 'TRUE', '1', '']) {
      expect(parseSearchParams({ country: 'de', openNow })).toEqual({
        ok: false,
        error: [{ parameter: 'openNow', reason: OPEN_NOW_REASON }],
      });
    }
    for (const openNow of [false, 'true', 1]) {
      expect(parseSearchToolInput({ country: 'de', openNow })).toEqual({
        ok: false,
        error: [{ parameter: 'openNow', reason: OPEN_NOW_REASON }],
      });
    }
  });

  it('binds cursors to the instant, however it is written', () => {
    expect(canonicalInstant('2026-11-23T09:30+01:00')).toBe('2026-11-23T08:30:00.000Z');
    const cursor = encodeCursor(
      { after: ['name', 'id'], filters: { country: 'de', openAt: '2026-11-23T09:30:00+01:00' } },
      SECRET,
    );
    expect(decodeCursor(cursor, { country: 'de', openAt: '2026-11-23T08:30:00.000Z' }, SECRET).ok).toBe(true);
    expect(decodeCursor(cursor, { country: 'de', openAt: '2026-11-23T09:30:00Z' }, SECRET).ok).toBe(false);
    expect(decodeCursor(cursor, { country: 'de', openNow: true }, SECRET).ok).toBe(false);
    // openNow binds "now", not the moment: each page is evaluated at its own request time.
    expect(filterFingerprint({ country: 'de', openNow: true })).toBe(
      filterFingerprint({ country: 'de', openNow: true }),
    );
  });
});

describe('the open-at clause', () => {
  it('asks, for each zone of the dataset, for records in that zone open at its local minute', () => {
    // Monday 09:30 in Madrid is 08:30 on the Canary Islands.
    expect(openAtClause('es', REQUEST_TIME)).toEqual({
      bool: {
        should: [
          {
            bool: {
              filter: [{ term: { timeZone: 'Europe/Madrid' } }, { term: { openRanges: MONDAY_0930 } }],
            },
          },
          {
            bool: {
              filter: [{ term: { timeZone: 'Atlantic/Canary' } }, { term: { openRanges: MONDAY_0930 - 60 } }],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(openAtClause('pt', REQUEST_TIME).bool.should).toHaveLength(3);
    expect(openAtClause('mx', REQUEST_TIME).bool.should).toHaveLength(6);
  });

  it('is added to the search for openAt, and for openNow at the request time the caller passes', () => {
    const clause = openAtClause('de', REQUEST_TIME);
    const withOpenAt = buildSearchRequest({ country: 'de', openAt: '2026-11-23T09:30:00+01:00' }, 10);
    expect(filteredQueryOf(withOpenAt).bool.filter).toContainEqual(clause);
    const withOpenNow = buildSearchRequest({ country: 'de', openNow: true }, 10, undefined, REQUEST_TIME);
    expect(filteredQueryOf(withOpenNow).bool.filter).toContainEqual(clause);
    // Order and paging are untouched: by name, then id.
    expect(withOpenNow.sort).toEqual([{ sortName: 'asc' }, { placeId: 'asc' }]);
    const both = buildSearchRequest(
      { country: 'de', openNow: true, openAt: '2026-11-23T18:00:00+01:00' },
      10,
      undefined,
      REQUEST_TIME,
    );
    // Each is its own condition: open now and at 18:00.
    expect(filteredQueryOf(both).bool.filter).toEqual([
      { term: { served: true } },
      { term: { country: 'de' } },
      openAtClause('de', new Date('2026-11-23T17:00:00Z')),
      clause,
    ]);
  });

  it('refuses openNow without a request time: the domain reads no clock', () => {
    expect(() => buildSearchRequest({ country: 'de', openNow: true }, 10)).toThrow(/request time/);
    // Without openNow the request time changes nothing.
    expect(buildSearchRequest({ country: 'de' }, 10, undefined, REQUEST_TIME)).toEqual(
      buildSearchRequest({ country: 'de' }, 10),
    );
  });
});
