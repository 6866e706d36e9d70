import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { entityTagOf } from '@directory/http-server';
import { rateLimitRedisKey } from '@directory/keyed-access';
import { placeState } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

const PLACES = [
  placeState({ id: 'cache-a', name: 'Praxis Anders', citySlug: 'berlin' }),
  placeState({ id: 'cache-b', name: 'Praxis Bauer', citySlug: 'berlin' }),
  placeState({ id: 'cache-c', name: 'Praxis Conrad', citySlug: 'hamburg', city: 'Hamburg' }),
];

// Every keyed GET of the API; a route added later is covered by the same hook without code of its own.
const ROUTES = [
  '/api/v1/doctors?country=de&limit=2',
  '/api/v1/doctors/cache-a',
  '/api/v1/doctors:batchGet?ids=cache-a,cache-b',
  '/api/v1/cities?country=de',
  '/api/v1/suggest?country=de&q=praxis',
  '/api/v1/doctors?country=de&limit=2&facets=city,verified',
  '/api/v1/facets/city?country=de',
  '/api/v1/changes?country=de',
  '/api/v1/key',
];

const REVALIDATE = 'private, no-cache';
const VARY = 'X-API-Key, Authorization';

describe('HTTP caching of keyed responses (ETag, If-None-Match, Cache-Control, Vary)', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let call: Caller;
  let secret: string;
  let accounts = 0;

  beforeAll(async () => {
    harness = await createApiHarness('api-caching');
    app = await harness.newApp();
    // Checks every response, 304s included, against /openapi.json.
    call = await createCaller(app);
    ({ secret } = await harness.createKey());
    await harness.index(PLACES);
  });
  afterAll(() => harness.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    call({ url, headers: { 'x-api-key': secret, ...headers } });

  function expectNotModified(response: LightMyRequestResponse, etag: string, url: string): void {
    expect(response.statusCode, url).toBe(304);
    expect(response.body).toBe('');
    expect(response.headers.etag).toBe(etag);
    expect(response.headers['cache-control']).toBe(REVALIDATE);
    expect(response.headers.vary).toBe(VARY);
    expect(response.headers['content-type']).toBeUndefined();
    expect(response.headers['content-length']).toBeUndefined();
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) {
      expect(response.headers[name], `${url} ${name}`).toBeDefined();
    }
  }

  it('tags every 200 with a strong ETag of its exact body, private and varying on the key headers', async () => {
    for (const url of ROUTES) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers.etag, url).toBe(entityTagOf(response.body));
      expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(response.headers['cache-control']).toBe(REVALIDATE);
      expect(response.headers.vary).toBe(VARY);
    }
  });

  it('answers a matching If-None-Match with 304 on every route: the tag, "*", a weak tag, a list', async () => {
    for (const url of ROUTES) {
      const etag = String((await get(url)).headers.etag);
      for (const header of [etag, '*', `W/${etag}`, `"other", W/"x" ,${etag}`]) {
        expectNotModified(await get(url, { 'if-none-match': header }), etag, url);
      }
    }
  });

  it('answers 200 with the full body when no listed tag matches, or the header is malformed', async () => {
    for (const url of ROUTES) {
      const first = await get(url);
      const etag = String(first.headers.etag);
      for (const header of ['"stale"', `"other", W/"stale"`, etag.slice(1, -1), `${etag} "glued"`]) {
        const response = await get(url, { 'if-none-match': header });
        expect(response.statusCode, `${url} ${header}`).toBe(200);
        expect(response.body).toBe(first.body);
        expect(response.headers.etag).toBe(etag);
      }
    }
  });

  it('gives search pages tags that follow the answer: same request, same tag; other filter, page or data, another', async () => {
    const url = '/api/v1/doctors?country=de&city=berlin&limit=1';
    const first = await get(url);
    expect((await get(url)).headers.etag).toBe(first.headers.etag);
    // An equivalent spelling of the same request gives the same body, so the same tag.
    expect((await get('/api/v1/doctors?country=DE&city=berlin&limit=1')).headers.etag).toBe(
      first.headers.etag,
    );

    const cursor = first.json<{ page: { nextCursor: string } }>().page.nextCursor;
    const next = await get(`${url}&cursor=${encodeURIComponent(cursor)}`);
    const otherFilter = await get('/api/v1/doctors?country=de&city=hamburg&limit=1');
    const otherLimit = await get('/api/v1/doctors?country=de&city=berlin&limit=2');
    const tags = [first, next, otherFilter, otherLimit].map((response) => response.headers.etag);
    expect(new Set(tags).size).toBe(4);

    // The index changes: the old tag no longer matches, and the new page comes whole.
    await harness.index([placeState({ id: 'cache-0', name: 'Praxis Aaron', citySlug: 'berlin' })]);
    const changed = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('cache-0');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expectNotModified(
      await get(url, { 'if-none-match': String(changed.headers.etag) }),
      String(changed.headers.etag),
      url,
    );
  });

  it('gives a record a new tag when the record changes', async () => {
    const url = '/api/v1/doctors/cache-b';
    const before = await get(url);
    await harness.index([
      placeState({ id: 'cache-b', name: 'Praxis Bauer-Neu', citySlug: 'berlin', version: 2 }),
    ]);
    const after = await get(url, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Bauer-Neu');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('answers HEAD like GET: the same tag, and 304 with the Content-Length of the 200 when it matches', async () => {
    const url = '/api/v1/doctors?country=de&limit=2';
    const full = await get(url);
    const head = await app.inject({ method: 'HEAD', url, headers: { 'x-api-key': secret } });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(full.headers.etag);
    const notModified = await app.inject({
      method: 'HEAD',
      url,
      headers: { 'x-api-key': secret, 'if-none-match': String(full.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(full.headers.etag);
    expect(notModified.headers['content-length']).toBe(String(Buffer.byteLength(full.body)));
  });

  it('marks errors no-store, with Vary and no ETag, even when If-None-Match is sent', async () => {
    const star = { 'if-none-match': '*' };
    const errors: Array<[LightMyRequestResponse, number]> = [
      [await get('/api/v1/doctors?country=xx', star), 400],
      [await get('/api/v1/doctors?country=de&api_key=abc', star), 400],
      [await get('/api/v1/doctors/no-such-place', star), 404],
      [await call({ url: '/api/v1/key', headers: { 'x-api-key': 'dk_live_wrong', ...star } }), 401],
      [await call({ url: '/api/v1/cities?country=de', headers: star }), 401],
    ];
    for (const [response, status] of errors) {
      expectProblem(response, status);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.vary).toBe(VARY);
      expect(response.headers.etag).toBeUndefined();
    }
  });

  describe('rate limit: a 304 spends no quota', () => {
    const newKey = () => harness.createKey(`caching-limits-${(accounts += 1)}@example.com`);
    const remainingOf = (response: LightMyRequestResponse) => response.headers['ratelimit-remaining'];

    it('answers any number of conditional requests with 304 without spending the quota, then counts a 200 again', async () => {
      const limited = await createCaller(await harness.newApp({ rateLimit: { max: 3, windowSeconds: 60 } }));
      const key = await newKey();
      const send = (url: string, headers: Record<string, string> = {}) =>
        limited({ url, headers: { 'x-api-key': key.secret, ...headers } });
      const url = '/api/v1/doctors?country=de&limit=2';
      const first = await send(url);
      expect(remainingOf(first)).toBe('2');
      const etag = String(first.headers.etag);
      for (let index = 0; index < 12; index += 1) {
        const response = await send(url, { 'if-none-match': etag });
        expectNotModified(response, etag, url);
        expect(remainingOf(response)).toBe('2');
      }
      // Only the 200 is on the key's count, in Redis as in the headers.
      const counter = rateLimitRedisKey(harness.redis.prefix, key.id);
      expect(await harness.redis.redis.get(counter)).toBe('1');
      expect(remainingOf(await send('/api/v1/key'))).toBe('1');
      // The request that would use the last unit is a 304: given back, one still remains.
      expect(remainingOf(await send(url, { 'if-none-match': etag }))).toBe('1');
      expect(remainingOf(await send('/api/v1/cities?country=de'))).toBe('0');
    });

    it('still answers 429 to a key at its limit, conditional or not (as GitHub does)', async () => {
      const limited = await createCaller(await harness.newApp({ rateLimit: { max: 2, windowSeconds: 60 } }));
      const key = await newKey();
      const send = (headers: Record<string, string> = {}) =>
        limited({ url: '/api/v1/key', headers: { 'x-api-key': key.secret, ...headers } });
      const etag = String((await send()).headers.etag);
      expect((await send()).statusCode).toBe(200);
      for (const header of [etag, '*']) {
        const refused = await send({ 'if-none-match': header });
        expect(expectProblem(refused, 429).type).toBe('/problems/rate-limited');
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        expect(refused.headers['cache-control']).toBe('no-store');
        expect(refused.headers.etag).toBeUndefined();
      }
    });
  });
});
