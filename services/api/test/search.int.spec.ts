import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor, foldText, type Doctor } from '@directory/domain';
import {
  createApiHarness,
  createCaller,
  CURSOR_SECRET,
  type ApiHarness,
  type Caller,
} from './support/api-harness.js';
import { SORTED_DOCTOR_KEYS, testDataset } from '@directory/testing';
import { expectProblem } from './support/problem.js';

type Page = { doctors: Doctor[]; page: { count: number; hasMore: boolean; nextCursor: string | null } };

describe('GET /api/v1/doctors', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;
  const dataset = testDataset();

  beforeAll(async () => {
    harness = await createApiHarness('api-search');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    await harness.index(dataset.states);
  });
  afterAll(() => harness.close());

  const search = async (query: string) => {
    const response = await call({ url: `/api/v1/doctors?${query}`, headers: { 'x-api-key': secret } });
    return response;
  };
  const page = async (query: string): Promise<Page> => {
    const response = await search(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };
  const ids = (result: Page) => result.doctors.map((doctor) => doctor.id);
  const badParameters = async (query: string) =>
    expectProblem(await search(query), 400).errors.map((error) => error.parameter);

  async function pageThrough(query: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 200; guard += 1) {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const result = await page(`${query}&limit=${limit}${suffix}`);
      expect(result.page.count).toBe(result.doctors.length);
      expect(result.doctors.length).toBeLessThanOrEqual(limit);
      seen.push(...ids(result));
      if (!result.page.hasMore) {
        expect(result.page.nextCursor).toBeNull();
        return seen;
      }
      expect(result.doctors.length).toBe(limit);
      cursor = result.page.nextCursor;
    }
    throw new Error('paging did not end');
  }

  it('returns 25 records by default, each exactly the Doctor allowlist', async () => {
    const result = await page('country=de');
    expect(result.doctors).toHaveLength(25);
    expect(result.page).toMatchObject({ count: 25, hasMore: true });
    for (const doctor of result.doctors) expect(Object.keys(doctor).sort()).toEqual(SORTED_DOCTOR_KEYS);
    expect(JSON.stringify(result)).not.toContain('crawlerNote');
  });

  it('accepts limit 1..100 and rejects anything else, naming the parameter', async () => {
    expect((await page('country=de&limit=1')).doctors).toHaveLength(1);
    expect((await page('country=de&limit=100')).doctors).toHaveLength(dataset.servedGermanIds.length);
    for (const limit of ['0', '101', '-1', '1.5', '+5', '%205', '1e1', 'abc', '', '0x10']) {
      expect(await badParameters(`country=de&limit=${limit}`)).toEqual(['limit']);
    }
  });

  it('requires country, case-insensitive, from the dataset list', async () => {
    expect(await badParameters('')).toEqual(['country']);
    expect(await badParameters('country=xx')).toEqual(['country']);
    expect(ids(await page('country=DE&limit=100'))).toEqual(ids(await page('country=de&limit=100')));
  });

  it('returns an empty page for fr, gb and mx', async () => {
    for (const country of ['fr', 'gb', 'mx']) {
      expect(await page(`country=${country}`)).toEqual({
        doctors: [],
        page: { count: 0, hasMore: false, nextCursor: null },
      });
    }
  });

  it('filters by city slug and rejects non-slugs', async () => {
    expect(ids(await page('country=de&city=hamburg'))).toEqual(['de-orthopaedie']);
    for (const city of ['Hamburg', 'ham burg', 'ham--burg', '-hamburg', 'hamburg-']) {
      expect(await badParameters(`country=de&city=${encodeURIComponent(city)}`)).toEqual(['city']);
    }
  });

  it('filters by whatsapp and verified, accepting only true and false', async () => {
    const whatsapp = await page('country=de&whatsapp=true&limit=100');
    expect(whatsapp.doctors.length).toBeGreaterThan(0);
    expect(whatsapp.doctors.every((doctor) => doctor.whatsappEligible)).toBe(true);
    expect(
      (await page('country=de&whatsapp=false&limit=100')).doctors.every((d) => !d.whatsappEligible),
    ).toBe(true);
    const verified = await page('country=de&verified=true&limit=100');
    expect(verified.doctors.length).toBeGreaterThan(0);
    expect(verified.doctors.every((doctor) => doctor.verified)).toBe(true);
    expect((await page('country=de&verified=false&limit=100')).doctors.every((d) => !d.verified)).toBe(true);
    for (const value of ['TRUE', 'True', '1', '0', 'yes', '']) {
      expect(await badParameters(`country=de&whatsapp=${value}`)).toEqual(['whatsapp']);
      expect(await badParameters(`country=de&verified=${value}`)).toEqual(['verified']);
    }
  });

  it('matches q literally, case- and accent-insensitively, every word, last word as prefix', async () => {
    const q = async (text: string) =>
      ids(await page(`country=de&limit=100&q=${encodeURIComponent(text)}`)).sort();
    expect(await q('müller')).toEqual(['de-mueller', 'de-orthopaedie']);
    expect(await q('MULLER')).toEqual(['de-mueller', 'de-orthopaedie']);
    expect(await q('Mül')).toEqual(['de-mueller', 'de-orthopaedie']);
    expect(await q('praxis müller')).toEqual(['de-mueller']);
    expect(await q('sportmed')).toEqual(['de-mueller']); // specialties
    expect(await q('zahnarzt')).toEqual(['de-schmidt']); // primary type (and name prefix)
    expect(await q('hamburg')).toEqual(['de-orthopaedie']); // city
    expect(await q('hamburg ortho')).toEqual(['de-orthopaedie']);
    expect(await q('ortho hamburg')).toEqual([]); // only the last word is a prefix
    expect(await q('müller schmidt')).toEqual([]); // every word must match
    // Query syntax is never interpreted: operators are words, wildcards match nothing special.
    expect(await q('Müller OR Schmidt')).toEqual([]);
    expect(await q('*')).toEqual([]);
    expect(await q('müller AND NOT')).toEqual([]);
    for (const text of ['name:praxis', '"praxis', '(praxis', 'praxis~2', '/.*/', 'praxis^10', '\\']) {
      expect((await search(`country=de&q=${encodeURIComponent(text)}`)).statusCode).toBe(200);
    }
    // Spanish accents too.
    expect(ids(await page(`country=es&q=${encodeURIComponent('CLINICA sanchez')}`))).toEqual(['es-sanchez']);
  });

  it('limits q to 100 characters', async () => {
    expect((await search(`country=de&q=${'a'.repeat(100)}`)).statusCode).toBe(200);
    expect(await badParameters(`country=de&q=${'a'.repeat(101)}`)).toEqual(['q']);
  });

  it('rejects unknown and repeated parameters, naming every bad one at once', async () => {
    expect(await badParameters('country=de&contry=de')).toEqual(['contry']);
    expect(await badParameters('country=de&Limit=5')).toEqual(['Limit']);
    expect(await badParameters('country=de&country=es')).toEqual(['country']);
    expect(await badParameters('country=de&__proto__=x')).toEqual(['__proto__']);
    expect(await badParameters('country=de&constructor=x')).toEqual(['constructor']);
    expect((await badParameters('country=xx&limit=0&whatsapp=yes&city=X&foo=1')).sort()).toEqual(
      ['city', 'country', 'foo', 'limit', 'whatsapp'].sort(),
    );
  });

  it('pages through a whole country: every served record exactly once, in the same order for any limit', async () => {
    const byFive = await pageThrough('country=de', 5);
    const bySeven = await pageThrough('country=de', 7);
    const byHundred = await pageThrough('country=de', 100);
    expect(byFive).toEqual(byHundred);
    expect(bySeven).toEqual(byHundred);
    expect(new Set(byFive).size).toBe(byFive.length);
    expect([...byFive].sort()).toEqual([...dataset.servedGermanIds].sort());
    // Order: folded name, then id (keyword order: code points).
    const names = new Map(
      dataset.states.map((state) => [state.placeId, foldText(state.observed?.name ?? '')]),
    );
    const key = (id: string) => [names.get(id) ?? '', id] as const;
    const expected = [...byFive].sort((a, b) => {
      const [nameA, idA] = key(a);
      const [nameB, idB] = key(b);
      if (nameA !== nameB) return nameA < nameB ? -1 : 1;
      return idA < idB ? -1 : 1;
    });
    expect(byFive).toEqual(expected);
  });

  it('pages with filters too (whatsapp + city)', async () => {
    const all = ids(await page('country=de&city=berlin&whatsapp=true&limit=100'));
    expect(await pageThrough('country=de&city=berlin&whatsapp=true', 3)).toEqual(all);
  });

  it('rejects tampered, malformed, foreign and mismatched cursors with 400 naming cursor', async () => {
    const first = await page('country=de&limit=5');
    const cursor = first.page.nextCursor ?? '';
    expect(cursor).not.toBe('');
    const [body = '', signature = ''] = cursor.split('.');
    const flip = (text: string) => text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A');
    const foreign = encodeCursor(
      { after: ['praxis', 'de-crowd-001'], filters: { country: 'de' } },
      'another-secret-of-another-deployment-xx',
    );
    const cases = [
      `${flip(body)}.${signature}`,
      `${body}.${flip(signature)}`,
      'garbage',
      `${body}.`,
      foreign,
    ];
    for (const bad of cases) {
      const problem = expectProblem(
        await search(`country=de&limit=5&cursor=${encodeURIComponent(bad)}`),
        400,
      );
      expect(problem.errors.map((error) => error.parameter)).toEqual(['cursor']);
    }
    // Same cursor, different filters.
    for (const filters of [
      'country=es',
      'country=de&city=berlin',
      'country=de&q=praxis',
      'country=de&verified=true',
    ]) {
      const problem = expectProblem(
        await search(`${filters}&limit=5&cursor=${encodeURIComponent(cursor)}`),
        400,
      );
      expect(problem.errors[0]?.reason).toMatch(/filters/);
    }
    // Same filters but a different limit is fine: the limit is not a filter.
    expect((await search(`country=de&limit=9&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
    expect(await badParameters(`country=de&cursor=${'a'.repeat(2049)}`)).toEqual(['cursor']);
    expect(await badParameters('country=de&cursor=')).toEqual(['cursor']);
  });

  it('accepts a cursor signed with the deployment secret (control for the foreign case)', async () => {
    const own = encodeCursor(
      { after: ['praxis', 'de-crowd-001'], filters: { country: 'de' } },
      CURSOR_SECRET,
    );
    expect((await search(`country=de&cursor=${encodeURIComponent(own)}`)).statusCode).toBe(200);
  });

  it('never returns suppressed, closed or unpublished places', async () => {
    const all = await pageThrough('country=de', 100);
    for (const hidden of ['de-suppressed', 'de-closed', 'de-unpublished']) expect(all).not.toContain(hidden);
    expect(ids(await page(`country=de&q=${encodeURIComponent('geschlossen')}`))).toEqual([]);
  });
});
