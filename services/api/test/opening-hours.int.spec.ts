import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doctor } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

type Page = { doctors: Doctor[]; page: { count: number; hasMore: boolean; nextCursor: string | null } };

const WEEKDAYS = ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag'];
const LAS_PALMAS = { latitude: 28.1235, longitude: -15.4363 };
const MADRID = { latitude: 40.4168, longitude: -3.7038 };

// Berlin unless said otherwise. Names give the order of results.
const PLACES = [
  placeState({
    id: 'oh-weekdays',
    name: 'A Praxis Wochentags',
    workingHours: Object.fromEntries(WEEKDAYS.map((day) => [day, [{ open: '08:00', close: '18:00' }]])),
  }),
  // Friday night across midnight into Saturday.
  placeState({
    id: 'oh-friday-night',
    name: 'B Nachtpraxis',
    workingHours: { Freitag: [{ open: '22:00', close: '02:00' }] },
  }),
  // Sunday night, across the end of the week into Monday.
  placeState({
    id: 'oh-sunday-night',
    name: 'C Sonntagnacht',
    workingHours: { Sonntag: [{ open: '23:00', close: '01:00' }] },
  }),
  // Opens at 03:00 on the Sunday of the spring-forward change (02:00 → 03:00 CEST).
  placeState({
    id: 'oh-sunday-early',
    name: 'D Frühdienst',
    workingHours: { Sonntag: [{ open: '03:00', close: '04:00' }] },
  }),
  placeState({
    id: 'oh-always',
    name: 'E Immer offen',
    workingHours: Object.fromEntries(
      [...WEEKDAYS, 'Samstag', 'Sonntag'].map((day) => [day, [{ open: '00:00', close: '24:00' }]]),
    ),
  }),
  placeState({ id: 'oh-none', name: 'F Ohne Zeiten', workingHours: null }),
  // A label outside the vocabulary: the hours are not structured, so the record never matches.
  placeState({
    id: 'oh-unreadable',
    name: 'G Unlesbar',
    workingHours: { 'Mo-So': [{ open: '00:00', close: '24:00' }] },
  }),
  placeState({
    id: 'oh-hidden',
    name: 'H Geschlossen',
    closed: true,
    workingHours: { Montag: [{ open: '00:00', close: '24:00' }] },
  }),
  // Spain: the same published hours on the mainland and on the Canary Islands, an hour apart.
  placeState({
    id: 'es-madrid',
    name: 'A Clínica Madrid',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    postalCode: '28001',
    location: MADRID,
    workingHours: {
      lunes: [{ open: '09:00', close: '14:00' }],
      domingo: [{ open: '01:30', close: '02:30' }],
    },
  }),
  placeState({
    id: 'es-canarias',
    name: 'B Clínica Canarias',
    country: 'es',
    city: 'Las Palmas de Gran Canaria',
    citySlug: 'las-palmas-de-gran-canaria',
    postalCode: '35001',
    location: LAS_PALMAS,
    workingHours: {
      lunes: [{ open: '09:00', close: '14:00' }],
      domingo: [{ open: '01:30', close: '02:30' }],
    },
  }),
  // Italy: two records open round the clock, so an openNow search always has a second page.
  ...[1, 2].map((number) =>
    placeState({
      id: `it-always-${number}`,
      name: `Studio ${number}`,
      country: 'it',
      city: 'Roma',
      citySlug: 'roma',
      workingHours: Object.fromEntries(
        ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'].map((day) => [
          day,
          [{ open: '00:00', close: '24:00' }],
        ]),
      ),
    }),
  ),
];

describe('GET /api/v1/doctors with openAt and openNow', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-hours', PLACES);
  });
  afterAll(() => api.close());

  const search = (query: string) => api.get(`/api/v1/doctors?${query}`);
  const page = (query: string) => api.getOk<Page>(`/api/v1/doctors?${query}`);
  const openAt = async (country: string, instant: string) =>
    (await page(`country=${country}&limit=100&openAt=${encodeURIComponent(instant)}`)).doctors.map(
      (doctor) => doctor.id,
    );

  it('selects the records open at an instant, in name order', async () => {
    // Monday 23 November 2026.
    expect(await openAt('de', '2026-11-23T09:30:00+01:00')).toEqual(['oh-weekdays', 'oh-always']);
    expect(await openAt('de', '2026-11-23T07:59:59+01:00')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-11-23T08:00:00+01:00')).toEqual(['oh-weekdays', 'oh-always']);
    // The same instant written in UTC.
    expect(await openAt('de', '2026-11-23T17:59Z')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-11-23T16:59Z')).toEqual(['oh-weekdays', 'oh-always']);
  });

  it('follows a period across midnight, and one from Sunday night into Monday', async () => {
    expect(await openAt('de', '2026-11-27T21:59:00+01:00')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-11-27T23:00:00+01:00')).toEqual(['oh-friday-night', 'oh-always']);
    expect(await openAt('de', '2026-11-28T01:59:00+01:00')).toEqual(['oh-friday-night', 'oh-always']);
    expect(await openAt('de', '2026-11-28T02:00:00+01:00')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-11-29T23:30:00+01:00')).toEqual(['oh-sunday-night', 'oh-always']);
    expect(await openAt('de', '2026-11-30T00:30:00+01:00')).toEqual(['oh-sunday-night', 'oh-always']);
    expect(await openAt('de', '2026-11-30T01:00:00+01:00')).toEqual(['oh-always']);
  });

  it('reads the hours on the local clock across a daylight-saving change', async () => {
    // Berlin springs forward on 29 March 2026 at 01:00 UTC: 01:59 CET, then 03:00 CEST.
    expect(await openAt('de', '2026-03-29T00:59:00Z')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-03-29T01:00:00Z')).toEqual(['oh-sunday-early', 'oh-always']);
    expect(await openAt('de', '2026-03-29T01:59:00Z')).toEqual(['oh-sunday-early', 'oh-always']);
    expect(await openAt('de', '2026-03-29T02:00:00Z')).toEqual(['oh-always']);
    // Berlin falls back on 25 October 2026 at 01:00 UTC (03:00 CEST → 02:00 CET): 03:00 comes at 02:00 UTC.
    expect(await openAt('de', '2026-10-25T00:59:00Z')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-10-25T01:59:00Z')).toEqual(['oh-always']);
    expect(await openAt('de', '2026-10-25T02:00:00Z')).toEqual(['oh-sunday-early', 'oh-always']);
    // Madrid and the Canary Islands change at the same instant, an hour apart; both open 01:30–02:30.
    expect(await openAt('es', '2026-03-29T00:29:00Z')).toEqual([]); // 01:29 CET, 00:29 WET
    expect(await openAt('es', '2026-03-29T00:59:00Z')).toEqual(['es-madrid']); // 01:59 CET, 00:59 WET
    expect(await openAt('es', '2026-03-29T01:00:00Z')).toEqual(['es-canarias']); // 03:00 CEST, 02:00 WEST
    expect(await openAt('es', '2026-10-25T00:00:00Z')).toEqual(['es-madrid']); // 02:00 CEST, 01:00 WEST
    expect(await openAt('es', '2026-10-25T00:30:00Z')).toEqual(['es-canarias']); // 02:30 CEST, 01:30 WEST
    expect(await openAt('es', '2026-10-25T01:00:00Z')).toEqual(['es-madrid']); // 02:00 CET, 01:00 WET
    expect(await openAt('es', '2026-10-25T01:30:00Z')).toEqual(['es-canarias']); // 02:30 CET, 01:30 WET
  });

  it('reads each Spanish record in its own zone: the Canary Islands an hour behind Madrid', async () => {
    // Monday 23 November 2026, 08:30 UTC: 09:30 in Madrid, 08:30 in Las Palmas.
    expect(await openAt('es', '2026-11-23T08:30:00Z')).toEqual(['es-madrid']);
    expect(await openAt('es', '2026-11-23T09:30:00Z')).toEqual(['es-madrid', 'es-canarias']);
    expect(await openAt('es', '2026-11-23T13:30:00Z')).toEqual(['es-canarias']);
    expect(await openAt('es', '2026-11-23T14:00:00Z')).toEqual([]);
  });

  it('pages through the open records exactly once, the cursor bound to the instant', async () => {
    const instant = encodeURIComponent('2026-11-23T09:30:00+01:00');
    const first = await page(`country=de&limit=1&openAt=${instant}`);
    expect(first.doctors.map((doctor) => doctor.id)).toEqual(['oh-weekdays']);
    const cursor = encodeURIComponent(first.page.nextCursor ?? '');
    // The same instant written otherwise is the same filter.
    const same = encodeURIComponent('2026-11-23T08:30Z');
    const second = await page(`country=de&limit=1&openAt=${same}&cursor=${cursor}`);
    expect(second).toEqual({
      doctors: [expect.objectContaining({ id: 'oh-always' })],
      page: { count: 1, hasMore: false, nextCursor: null },
    });
    for (const query of [
      `country=de&limit=1&cursor=${cursor}`,
      `country=de&limit=1&openAt=${encodeURIComponent('2026-11-23T09:31:00+01:00')}&cursor=${cursor}`,
      `country=de&limit=1&openNow=true&cursor=${cursor}`,
    ]) {
      expect(expectProblem(await search(query), 400).errors.map((error) => error.parameter)).toEqual([
        'cursor',
      ]);
    }
  });

  it('openNow=true selects the records open at the time of the request', async () => {
    // Compared with openAt at the request's minute; retried when the minute turned meanwhile.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const before = new Date();
      const now = (await page('country=de&limit=100&openNow=true')).doctors.map((doctor) => doctor.id);
      const after = new Date();
      if (Math.floor(before.getTime() / 60_000) !== Math.floor(after.getTime() / 60_000)) continue;
      expect(now).toContain('oh-always');
      expect(now).toEqual(await openAt('de', before.toISOString()));
      for (const never of ['oh-none', 'oh-unreadable', 'oh-hidden']) expect(now).not.toContain(never);
      return;
    }
    throw new Error('the minute turned during every attempt');
  });

  it('pages openNow with cursors bound to openNow, not to an instant', async () => {
    const first = await page('country=it&limit=1&openNow=true');
    expect(first.doctors.map((doctor) => doctor.id)).toEqual(['it-always-1']);
    const cursor = encodeURIComponent(first.page.nextCursor ?? '');
    expect(await page(`country=it&limit=1&openNow=true&cursor=${cursor}`)).toEqual({
      doctors: [expect.objectContaining({ id: 'it-always-2' })],
      page: { count: 1, hasMore: false, nextCursor: null },
    });
    for (const query of [
      `country=it&limit=1&cursor=${cursor}`,
      `country=it&limit=1&openAt=${encodeURIComponent(new Date().toISOString())}&cursor=${cursor}`,
    ]) {
      expect(expectProblem(await search(query), 400).errors.map((error) => error.parameter)).toEqual([
        'cursor',
      ]);
    }
  });

  it('never matches records without structured hours', async () => {
    const everyHour = Array.from({ length: 7 * 24 }, (_, hour) =>
      new Date(Date.UTC(2026, 10, 23, hour, 15)).toISOString(),
    );
    const seen = new Set<string>();
    for (const instant of everyHour.filter((_, index) => index % 5 === 0)) {
      for (const id of await openAt('de', instant)) seen.add(id);
    }
    expect(seen.has('oh-always')).toBe(true);
    for (const never of ['oh-none', 'oh-unreadable', 'oh-hidden']) expect(seen.has(never)).toBe(false);
  });

  it.each([
    ['openAt=now', ['openAt']],
    ['openAt=2026-11-23T09%3A30%3A00', ['openAt']],
    ['openAt=2026-11-23', ['openAt']],
    ['openAt=', ['openAt']],
    ['openNow=false', ['openNow']],
    ['openNow=1', ['openNow']],
    ['openNow=true&openNow=true', ['openNow']],
    ['openAt=x&openNow=no&limit=0', ['openAt', 'openNow', 'limit']],
  ])('refuses %s with 400 naming each bad parameter', async (query, parameters) => {
    const problem = expectProblem(await search(`country=de&${query}`), 400);
    expect(problem.errors.map((error) => error.parameter)).toEqual(parameters);
  });

  it('explains what it expects, and lists the newer parameters only to requests using one', async () => {
    const [openAtError] = expectProblem(await search('country=de&openAt=tomorrow'), 400).errors;
    expect(openAtError?.reason).toMatch(/ISO 8601.*offset/);
    const [openNowError] = expectProblem(await search('country=de&openNow=false'), 400).errors;
    expect(openNowError?.reason).toMatch(/must be true/);
    const [unknown] = expectProblem(await search('country=de&openNow=true&opennow=true'), 400).errors;
    expect(unknown?.reason).toContain('openAt, openNow');
    const [unknownOriginal] = expectProblem(await search('country=de&opennow=true'), 400).errors;
    expect(unknownOriginal?.reason).not.toContain('openNow');
  });
});
