import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDoctor } from '../src/places/doctor.js';
import { decodeCursor, encodeCursor } from '../src/search/cursor.js';
import {
  GEO_RADIUS_DEFAULT_M,
  GEO_RADIUS_MAX_M,
  NEAR_REASON,
  parseNear,
  toDistanceMeters,
} from '../src/search/geo.js';
import type { SearchFilters } from '../src/search/search-filters.js';
import {
  RADIUS_WITHOUT_NEAR_REASON,
  parseSearchParams,
  parseSearchToolInput,
} from '../src/search/search-params.js';
import {
  buildSearchRequest,
  filteredQueryOf,
  toDoctorPage,
  type SearchHit,
} from '../src/search/search-query.js';
import { servedState, SITE_ORIGIN } from './fixtures.js';

const SECRET = 'test-cursor-secret-0123456789abcdef';
const BERLIN = { lat: 52.52, lon: 13.405 };

describe('parseNear', () => {
  it.each([
    ['52.52,13.405', { lat: 52.52, lon: 13.405 }],
    [' 52.52 , 13.405 ', { lat: 52.52, lon: 13.405 }],
    ['-33.8688,151.2093', { lat: -33.8688, lon: 151.2093 }],
    ['+40,-3.7', { lat: 40, lon: -3.7 }],
    ['90,180', { lat: 90, lon: 180 }],
    ['-90,-180', { lat: -90, lon: -180 }],
    ['0,0', { lat: 0, lon: 0 }],
  ])('reads %j', (text, point) => {
    expect(parseNear(text)).toEqual({ ok: true, value: point });
  });

  it('spells zero one way, so "-0,-0" and "0,0" bind the same cursor', () => {
    const parsed = parseNear('-0,-0.0');
    expect(parsed.ok && Object.is(parsed.value.lat, 0) && Object.is(parsed.value.lon, 0)).toBe(true);
  });

  it.each([
    '',
    '52.52',
    '52.52,13.405,7',
    '52.52;13.405',
    'abc,def',
    '1e1,2',
    '0x10,2',
    'Infinity,1',
    '52.,13',
    '.5,13',
    '52.52,',
    ',13.4',
    '52.12345678901,13',
  ])('refuses the shape of %j', (text) => {
    expect(parseNear(text)).toEqual({ ok: false, error: NEAR_REASON });
  });

  it('names the coordinate out of range', () => {
    expect(parseNear('90.5,0')).toEqual({
      ok: false,
      error: 'latitude (before the comma) must be from -90 to 90',
    });
    expect(parseNear('0,-180.01')).toEqual({
      ok: false,
      error: 'longitude (after the comma) must be from -180 to 180',
    });
  });

  it('reads back every point it can be given', () => {
    const coordinate = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((n) => n / 1e6);
    fc.assert(
      fc.property(coordinate(90), coordinate(180), (lat, lon) => {
        expect(parseNear(`${lat},${lon}`)).toEqual({ ok: true, value: { lat: lat + 0, lon: lon + 0 } });
      }),
    );
  });
});

describe('toDistanceMeters', () => {
  it('rounds the sort value to whole metres', () => {
    expect(toDistanceMeters(0)).toBe(0);
    expect(toDistanceMeters(1234.49)).toBe(1234);
    expect(toDistanceMeters(1234.5)).toBe(1235);
  });

  it.each([undefined, null, '12', -1, Number.NaN, Number.POSITIVE_INFINITY])('throws on %j', (value) => {
    expect(() => toDistanceMeters(value)).toThrow(/distance/);
  });
});

describe('near and radius parameters', () => {
  it('parses near and radius from a query string and from tool arguments', () => {
    expect(parseSearchParams({ country: 'de', near: '52.52,13.405', radius: '2500' })).toEqual({
      ok: true,
      value: { country: 'de', near: BERLIN, radius: 2500, limit: 25 },
    });
    // The tool asks for suggestions unless told not to (an empty page then says what to try).
    expect(parseSearchToolInput({ country: 'de', near: '52.52,13.405', radius: 2500, cursor: null })).toEqual(
      {
        ok: true,
        value: { country: 'de', near: BERLIN, radius: 2500, limit: 25, suggestions: true },
      },
    );
    expect(parseSearchParams({ country: 'de', near: '52.52,13.405' })).toEqual({
      ok: true,
      value: { country: 'de', near: BERLIN, limit: 25 },
    });
  });

  it('refuses a bad near or radius with its reason, among every other bad parameter', () => {
    const radiusReason = `must be an integer number of metres from 1 to ${GEO_RADIUS_MAX_M}`;
    expect(parseSearchParams({ country: 'de', near: '91,0', radius: '0', limit: '0' })).toEqual({
      ok: false,
      error: [
        { parameter: 'near', reason: 'latitude (before the comma) must be from -90 to 90' },
        { parameter: 'radius', reason: radiusReason },
        { parameter: 'limit', reason: 'must be an integer from 1 to 100' },
      ],
    });
    for (const radius of ['50001', '1.5', '-5', 'abc', '', '1e3']) {
      expect(parseSearchParams({ country: 'de', near: '0,0', radius })).toEqual({
        ok: false,
        error: [{ parameter: 'radius', reason: radiusReason }],
      });
    }
    expect(parseSearchParams({ country: 'de', near: '0,0', radius: String(GEO_RADIUS_MAX_M) }).ok).toBe(true);
    expect(parseSearchToolInput({ country: 'de', near: { lat: 1, lon: 2 } })).toEqual({
      ok: false,
      error: [{ parameter: 'near', reason: NEAR_REASON }],
    });
  });

  it('refuses radius without near, along with other errors', () => {
    expect(parseSearchParams({ country: 'de', radius: '500' })).toEqual({
      ok: false,
      error: [{ parameter: 'radius', reason: RADIUS_WITHOUT_NEAR_REASON }],
    });
    expect(parseSearchToolInput({ country: 'xx', radius: 500, near: null })).toEqual({
      ok: false,
      error: [
        { parameter: 'country', reason: 'must be one of de, es, fr, gb, it, mx, pt' },
        { parameter: 'radius', reason: RADIUS_WITHOUT_NEAR_REASON },
      ],
    });
  });

  it('lists near and radius as known only to a request that uses them (a request without them is answered as before)', () => {
    const unknown = (known: string) => `is not a known parameter (known: ${known}; names are case-sensitive)`;
    expect(parseSearchParams({ country: 'de', nearby: '1' })).toEqual({
      ok: false,
      error: [
        { parameter: 'nearby', reason: unknown('country, city, q, whatsapp, verified, limit, cursor') },
      ],
    });
    expect(parseSearchParams({ country: 'de', near: '1,2', radus: '1' })).toEqual({
      ok: false,
      error: [
        {
          parameter: 'radus',
          // A request using a later parameter is told every parameter, record shaping and batch get included.
          reason: unknown(
            'country, city, q, whatsapp, verified, near, radius, specialty, openAt, openNow, limit, cursor, fields, lang, ids',
          ),
        },
      ],
    });
  });
});

describe('geo search requests and pages', () => {
  const filters: SearchFilters = { country: 'de', near: BERLIN, radius: 3000 };

  it('keeps records within the radius and orders them by arc distance, then id', () => {
    expect(buildSearchRequest(filters, 10, [1500.25, 'place_9'])).toEqual({
      size: 11,
      query: {
        bool: {
          filter: [
            { term: { served: true } },
            { term: { country: 'de' } },
            { geo_distance: { distance: '3000m', location: BERLIN } },
          ],
        },
      },
      sort: [
        { _geo_distance: { location: BERLIN, order: 'asc', unit: 'm', distance_type: 'arc' } },
        { placeId: 'asc' },
      ],
      search_after: [1500.25, 'place_9'],
      _source: ['doctor', 'sortName', 'placeId'],
      track_total_hits: false,
    });
  });

  it(`searches ${GEO_RADIUS_DEFAULT_M} m around near when no radius is given`, () => {
    const body = buildSearchRequest({ country: 'de', near: BERLIN }, 10);
    expect(filteredQueryOf(body).bool.filter).toContainEqual({
      geo_distance: { distance: `${GEO_RADIUS_DEFAULT_M}m`, location: BERLIN },
    });
  });

  it('refuses what the edge never lets through: radius alone, or a cursor of the other kind', () => {
    expect(() => buildSearchRequest({ country: 'de', radius: 10 }, 10)).toThrow(/radius without near/);
    expect(() => buildSearchRequest(filters, 10, ['name', 'id'])).toThrow(/cursor/);
    expect(() => buildSearchRequest({ country: 'de' }, 10, [12, 'id'])).toThrow(/cursor/);
  });

  it('adds distanceMeters (whole metres) to each record and resumes after the exact distance', () => {
    const doctor = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
    const hit = (id: string, distance: number): SearchHit => ({
      _source: { doctor: { ...doctor, id }, sortName: 'x', placeId: id },
      sort: [distance, id],
    });
    const page = toDoctorPage([hit('a', 10.4), hit('b', 2345.678), hit('c', 2999.9)], 2, filters, SECRET);
    expect(page.doctors.map((record) => [record.id, record.distanceMeters])).toEqual([
      ['a', 10],
      ['b', 2346],
    ]);
    // The distance is the last key: the Doctor's own fields keep their order.
    expect(Object.keys(page.doctors[0] ?? {}).at(-1)).toBe('distanceMeters');
    expect(page.page).toMatchObject({ count: 2, hasMore: true });
    expect(decodeCursor(page.page.nextCursor ?? '', filters, SECRET)).toEqual({
      ok: true,
      value: [2345.678, 'b'],
    });
  });

  it('adds no distance without near: records stay the Doctor as is', () => {
    const doctor = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
    const page = toDoctorPage(
      [{ _source: { doctor, sortName: 'x', placeId: 'a' }, sort: ['x', 'a'] }],
      5,
      { country: 'de' },
      SECRET,
    );
    expect(page.doctors).toEqual([doctor]);
    expect(page.doctors[0]).not.toHaveProperty('distanceMeters');
  });

  it('round-trips geo cursors, and refuses them for other points or radii', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 50_000, noNaN: true }),
        fc.string({ minLength: 1, maxLength: 20 }),
        (distance, placeId) => {
          const cursor = encodeCursor({ after: [distance, placeId], filters }, SECRET);
          expect(decodeCursor(cursor, filters, SECRET)).toEqual({ ok: true, value: [distance, placeId] });
          expect(decodeCursor(cursor, { ...filters, radius: 3001 }, SECRET).ok).toBe(false);
          expect(decodeCursor(cursor, { ...filters, near: { lat: 52.52, lon: 13.4 } }, SECRET).ok).toBe(
            false,
          );
        },
      ),
    );
  });
});
