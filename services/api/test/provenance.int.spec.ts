import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CRAWL_TIME, placeState } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * API 1.3 provenance over the real index: `observedAt`, `updatedAt` and `verifiedAt` come back when named
 * in `fields` (never otherwise), and `updatedSince` keeps the records changed at or after an instant,
 * through every page. Every answer is checked against the published OpenAPI document by the caller.
 */

const DAYS = ['2026-10-01T00:00:00.000Z', '2026-10-15T12:00:00.000Z', '2026-11-01T08:30:00.000Z'];

describe('record provenance (API 1.3)', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-provenance');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    await harness.index([
      placeState({ id: 'de-old', name: 'Praxis Alt', updatedAt: DAYS[0] }),
      placeState({ id: 'de-mid', name: 'Praxis Mitte', updatedAt: DAYS[1], verified: true }),
      placeState({ id: 'de-new-a', name: 'Praxis Neu A', updatedAt: DAYS[2] }),
      placeState({ id: 'de-new-b', name: 'Praxis Neu B', updatedAt: DAYS[2] }),
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

  it('refuses an updatedSince that is not an instant, naming it', async () => {
    for (const value of ['yesterday', '2026-10-15', '2026-10-15T12:00:00']) {
      const problem = expectProblem(await get(`/api/v1/doctors?country=de&updatedSince=${value}`), 400);
      expect(problem.errors.map((error) => error.parameter)).toEqual(['updatedSince']);
    }
  });
});
