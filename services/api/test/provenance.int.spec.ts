import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CRAWL_TIME, placeState } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * API 1.3 provenance over the real index: `observedAt`, `updatedAt` and `verifiedAt` come back when named
 * in `fields` (never otherwise), and `updatedSince` keeps the records changed at or after an instant,
 * through every page. API 1.5 freshness: `observedSince`, and each dataset's 90-day crawl coverage
 * (`GET /api/v1/datasets`). Every answer is checked against the published OpenAPI document by the caller.
 */

const DAYS = ['2026-10-01T00:00:00.000Z', '2026-10-15T12:00:00.000Z', '2026-11-01T08:30:00.000Z'];
// Observed by a crawl a day ago (inside any 90-day window ending now) and 100 days ago (outside it).
const DAY_MS = 86_400_000;
const RECENTLY = new Date(Date.now() - DAY_MS).toISOString();
const LONG_AGO = new Date(Date.now() - 100 * DAY_MS).toISOString();

describe('record provenance (API 1.3)', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-provenance');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    await harness.index([
      placeState({ id: 'de-old', name: 'Praxis Alt', updatedAt: DAYS[0], observedAt: RECENTLY }),
      placeState({ id: 'de-mid', name: 'Praxis Mitte', updatedAt: DAYS[1], verified: true }),
      placeState({ id: 'de-new-a', name: 'Praxis Neu A', updatedAt: DAYS[2], observedAt: RECENTLY }),
      placeState({ id: 'de-new-b', name: 'Praxis Neu B', updatedAt: DAYS[2], observedAt: LONG_AGO }),
      placeState({
        id: 'es-one',
        country: 'es',
        citySlug: 'madrid',
        name: 'Clínica Uno',
        observedAt: RECENTLY,
      }),
    ]);
  });
  afterAll(() => harness.close());

  const get = (url: string) => call({ url, headers: { 'x-api-key': secret } });
  type Page = {
    doctors: Array<Record<string, unknown> & { id: string }>;
    page: { nextCursor: string | null };
  };
  const page = async (query: string): Promise<Page> => {
    const response = await get(`/api/v1/doctors?country=de&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };

  it('returns the provenance only when named in fields', async () => {
    const plain = await page('limit=10');
    expect(plain.doctors.every((doctor) => !('updatedAt' in doctor) && !('observedAt' in doctor))).toBe(true);

    const named = await page('limit=10&fields=name,observedAt,updatedAt,verifiedAt');
    const mid = named.doctors.find((doctor) => doctor.id === 'de-mid');
    expect(mid).toEqual({
      id: 'de-mid',
      name: 'Praxis Mitte',
      observedAt: FIXTURE_CRAWL_TIME,
      updatedAt: DAYS[1],
      verifiedAt: FIXTURE_CRAWL_TIME,
    });
    expect(named.doctors.find((doctor) => doctor.id === 'de-old')?.verifiedAt).toBeNull();

    const all = await get('/api/v1/doctors/de-new-a?fields=*');
    expect(all.json<{ doctor: Record<string, unknown> }>().doctor.updatedAt).toBe(DAYS[2]);
  });

  it('keeps the records changed at or after updatedSince, in any offset, through every page', async () => {
    const ids = async (since: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const result = await page(`limit=1&updatedSince=${encodeURIComponent(since)}${suffix}`);
        seen.push(...result.doctors.map((doctor) => doctor.id));
        cursor = result.page.nextCursor;
      } while (cursor !== null);
      return seen.sort();
    };
    expect(await ids(DAYS[1] ?? '')).toEqual(['de-mid', 'de-new-a', 'de-new-b']);
    // The same instant written with an offset, and one millisecond later.
    expect(await ids('2026-10-15T14:00:00+02:00')).toEqual(['de-mid', 'de-new-a', 'de-new-b']);
    expect(await ids('2026-10-15T12:00:00.001Z')).toEqual(['de-new-a', 'de-new-b']);
    expect(await ids('2026-12-01T00:00:00Z')).toEqual([]);
  });

  it('refuses an updatedSince or observedSince that is not an instant, naming it', async () => {
    for (const name of ['updatedSince', 'observedSince']) {
      for (const value of ['yesterday', '2026-10-15', '2026-10-15T12:00:00']) {
        const problem = expectProblem(await get(`/api/v1/doctors?country=de&${name}=${value}`), 400);
        expect(problem.errors.map((error) => error.parameter)).toEqual([name]);
      }
    }
  });

  it('keeps the records a crawl observed at or after observedSince, changed or not (API 1.5)', async () => {
    const observed = async (since: string) =>
      (await page(`limit=10&fields=observedAt&observedSince=${encodeURIComponent(since)}`)).doctors
        .map((doctor) => doctor.id)
        .sort();
    const windowStart = new Date(Date.now() - 90 * DAY_MS).toISOString();
    expect(await observed(windowStart)).toEqual(['de-new-a', 'de-old']);
    expect(await observed(LONG_AGO)).toEqual(['de-new-a', 'de-new-b', 'de-old']);
    expect(await observed(FIXTURE_CRAWL_TIME)).toEqual(['de-mid', 'de-new-a', 'de-new-b', 'de-old']);
    // observedSince and updatedSince are two filters: together, both hold.
    const both = await page(
      `limit=10&observedSince=${encodeURIComponent(windowStart)}&updatedSince=${DAYS[2]}`,
    );
    expect(both.doctors.map((doctor) => doctor.id)).toEqual(['de-new-a']);
  });

  it('GET /api/v1/datasets: served records per dataset, the newest observation and the 90-day coverage', async () => {
    type DatasetsPage = {
      asOf: string;
      windowDays: number;
      windowStart: string;
      datasets: Array<{
        country: string;
        records: number;
        lastObservedAt: string | null;
        observedInWindow: number;
        coverage: number;
      }>;
    };
    const response = await get('/api/v1/datasets');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<DatasetsPage>();
    expect(body.windowDays).toBe(90);
    expect(Date.parse(body.asOf) - Date.parse(body.windowStart)).toBe(90 * DAY_MS);
    // asOf is the request's minute.
    expect(Date.now() - Date.parse(body.asOf)).toBeLessThan(120_000);
    expect(body.datasets).toEqual([
      { country: 'de', records: 4, lastObservedAt: RECENTLY, observedInWindow: 2, coverage: 0.5 },
      { country: 'es', records: 1, lastObservedAt: RECENTLY, observedInWindow: 1, coverage: 1 },
    ]);
    // observedSince=windowStart finds exactly the records the coverage counts.
    const counted = await page(`limit=10&observedSince=${encodeURIComponent(body.windowStart)}`);
    expect(counted.doctors).toHaveLength(2);

    const spain = (await get('/api/v1/datasets?country=ES')).json<DatasetsPage>();
    expect(spain.datasets.map((dataset) => dataset.country)).toEqual(['es']);
    expect((await get('/api/v1/datasets?country=pt')).json<DatasetsPage>().datasets).toEqual([]);
    const problem = expectProblem(await get('/api/v1/datasets?country=xx&since=1'), 400);
    expect(problem.errors.map((error) => error.parameter).sort()).toEqual(['country', 'since']);
  });
});
