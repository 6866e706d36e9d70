import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchRequestCache } from '@directory/search';
import { testDataset } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness } from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

// The hot-query cache sits in the directory, behind the routes: a request answered from memory has
// passed authentication and spent its quota like any other.
describe('API with the hot-query cache', () => {
  let harness: ApiHarness;
  const cache = createSearchRequestCache({ maxEntries: 100, maxBytes: 1_000_000, ttlMs: 60_000 });
  const SEARCH = '/api/v1/doctors?country=de&city=berlin&limit=2';

  beforeAll(async () => {
    harness = await createApiHarness('api-search-cache');
    await harness.index(testDataset().states);
  });
  afterAll(() => harness.close());

  it('answers byte for byte as without it, and still authenticates and counts every request', async () => {
    const cached = await createCaller(
      await harness.newApp({ searchCache: cache, rateLimit: { max: 3, windowSeconds: 60 } }),
    );
    const uncached = await createCaller(await harness.newApp());
    const { id, secret } = await harness.createKey('cache@example.com');
    const headers = { 'x-api-key': secret };

    const reference = await harness.createKey('cache-reference@example.com');
    const expected = await uncached({ url: SEARCH, headers: { 'x-api-key': reference.secret } });
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push(await cached({ url: SEARCH, headers }));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(expected.body);
    }
    expect(answers.map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
    // Kept when asked again (the default admission): the second request missed too, the third hit.
    expect(cache.stats()).toMatchObject({ misses: 2, hits: 1 });

    // The answer is in memory, the quota is spent: 429, not the cached page.
    expectProblem(await cached({ url: SEARCH, headers }), 429);
    // No key, or a revoked one, never reaches the cache.
    expectProblem(await cached({ url: SEARCH }), 401);
    const other = await harness.createKey('cache-revoked@example.com');
    expect((await cached({ url: SEARCH, headers: { 'x-api-key': other.secret } })).statusCode).toBe(200);
    await harness.revokeKey(other.id);
    expectProblem(await cached({ url: SEARCH, headers: { 'x-api-key': other.secret } }), 401);
    expect(cache.stats().hits).toBe(2);
    await harness.revokeKey(id);
  });
});
