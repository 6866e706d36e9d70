import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_LANGUAGES } from '@directory/domain';
import { HIDDEN_IDS, SITE_ORIGIN, testDataset } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

/**
 * `GET /api/v1/doctors:batchGet` (API 1.3), the batch get as an operation of its own: the answer the
 * deprecated `GET /api/v1/doctors?ids=…` gives for the same ids, byte for byte, its errors, and the
 * routing of a path with a literal colon next to `/api/v1/doctors/{doctorId}`. Every answer is checked
 * against the published OpenAPI document by the caller.
 */

const MUELLER_DE_URL = `${SITE_ORIGIN}/de/${PAGE_LANGUAGES.de}/de/berlin/praxis-dr-mueller`;
const idsValue = (ids: string[]) => ids.map(encodeURIComponent).join(',');

describe('GET /api/v1/doctors:batchGet', () => {
  let api: KeyedApi;
  // A key for requests with headers of their own (the keyed `get` sends only its key).
  let secret: string;

  beforeAll(async () => {
    api = await createKeyedApi('api-batch-get', testDataset().states);
    ({ secret } = await api.harness.createKey());
  });
  afterAll(() => api.close());

  const batchGet = (query: string) => api.get(`/api/v1/doctors:batchGet?${query}`);
  const deprecatedForm = (query: string) => api.get(`/api/v1/doctors?${query}`);

  it.each([
    ['ids only', `ids=${idsValue(['de-mueller', 'de-unknown', 'de-mueller'])}`],
    ['a profile URL and its id', `ids=${idsValue([MUELLER_DE_URL, 'de-mueller', HIDDEN_IDS[0] ?? ''])}`],
    ['fields', `ids=${idsValue(['de-mueller'])}&fields=name,phone,openingHours`],
    ['fields=*', `ids=${idsValue(['de-mueller'])}&fields=*`],
    ['lang', `ids=${idsValue(['de-mueller'])}&lang=de&fields=profileUrl`],
    ['lang alone', `ids=${idsValue(['de-mueller'])}&lang=ES`],
  ])('answers exactly what GET /api/v1/doctors?ids= answers (%s)', async (_name, query) => {
    const [fresh, deprecated] = [await batchGet(query), await deprecatedForm(query)];
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(deprecated.statusCode, deprecated.body).toBe(200);
    expect(fresh.body).toBe(deprecated.body);
    expect(fresh.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fresh.headers['content-type']).toBe(deprecated.headers['content-type']);
    // The same bytes, so the same entity tag: a client may switch forms and keep its cache.
    expect(fresh.headers.etag).toBe(deprecated.headers.etag);
    expect(fresh.headers['cache-control']).toBe('private, no-cache');
    expect(fresh.headers['ratelimit-policy']).toBeDefined();
  });

  it('lists records once each in request order, and what found none as sent', async () => {
    const response = await batchGet(`ids=${idsValue(['de-unknown', 'de-mueller', MUELLER_DE_URL])}`);
    const body = response.json<{ doctors: Array<{ id: string }>; missing: string[] }>();
    expect(body.doctors.map((doctor) => doctor.id)).toEqual(['de-mueller']);
    expect(body.missing).toEqual(['de-unknown']);
  });

  it('revalidates with If-None-Match like every other route', async () => {
    const query = `ids=${idsValue(['de-mueller'])}`;
    const first = await batchGet(query);
    const etag = String(first.headers.etag);
    const again = await api.call({
      url: `/api/v1/doctors:batchGet?${query}`,
      headers: { 'x-api-key': secret, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('needs a key', async () => {
    expectProblem(await api.call({ url: `/api/v1/doctors:batchGet?ids=de-mueller` }), 401);
  });

  it('refuses a missing, empty or repeated ids, and a bad entry by its position', async () => {
    for (const query of ['', 'ids=', 'ids=a&ids=b', 'fields=name']) {
      const problem = expectProblem(await batchGet(query), 400);
      expect(
        problem.errors.map((error) => error.parameter),
        query,
      ).toContain('ids');
    }
    const bad = expectProblem(await batchGet('ids=de-mueller,not%20an%20id'), 400);
    expect(bad.errors).toEqual([
      { parameter: 'ids', reason: expect.stringMatching(/^entry 2: must be a doctor id/) as string },
    ]);
    const tooMany = expectProblem(
      await batchGet(`ids=${Array.from({ length: 101 }, () => 'a').join(',')}`),
      400,
    );
    expect(tooMany.errors).toEqual([
      { parameter: 'ids', reason: 'must list at most 100 entries; split the batch into several requests' },
    ]);
  });

  it('refuses every parameter it does not take, search parameters included, by name', async () => {
    const problem = expectProblem(
      await batchGet('ids=de-mueller&country=de&limit=5&q=praxis&colour=blue'),
      400,
    );
    expect(problem.errors).toEqual(
      ['country', 'limit', 'q', 'colour'].map((parameter) => ({
        parameter,
        reason: 'is not a known parameter (known: ids, fields, lang; names are case-sensitive)',
      })),
    );
    const badShape = expectProblem(await batchGet('ids=de-mueller&fields=nope&lang=xx'), 400);
    expect(badShape.errors.map((error) => error.parameter)).toEqual(['fields', 'lang']);
  });

  it('leaves /api/v1/doctors/{doctorId} and search where they were', async () => {
    const single = await api.getOk<{ doctor: { id: string } }>('/api/v1/doctors/de-mueller');
    expect(single.doctor.id).toBe('de-mueller');
    // A doctor id cannot hold a colon: this is a bad id, not the batch route.
    const colonId = expectProblem(await api.get('/api/v1/doctors/:batchGet'), 400);
    expect(colonId.errors.map((error) => error.parameter)).toEqual(['doctorId']);
    const page = await api.getOk<{ doctors: unknown[] }>('/api/v1/doctors?country=de&limit=1');
    expect(page.doctors).toHaveLength(1);
  });

  it('is a different path with the colon percent-encoded, or the name in another case: 404', async () => {
    // RFC 3986: a reserved character and its percent-encoding are not equivalent in a path.
    for (const path of [
      '/api/v1/doctors%3AbatchGet',
      '/api/v1/doctors%3abatchGet',
      '/api/v1/doctors:batchget',
    ]) {
      expectProblem(await api.get(`${path}?ids=de-mueller`), 404);
    }
  });
});
