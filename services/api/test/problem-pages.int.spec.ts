import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';

describe('GET /problems/{name}', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  beforeAll(async () => {
    harness = await createApiHarness('api-problem-pages');
    app = await harness.newApp();
  });
  afterAll(() => harness.close());

  it("serves the page every problem body's type points at, without a key: JSON for programs", async () => {
    const unauthorized = await app.inject({ url: '/api/v1/key' });
    const { type } = unauthorized.json<{ type: string }>();
    const response = await app.inject({ url: type, headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.vary).toBe('Accept');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const page = response.json<{ type: string; title: string; status: number; description: string }>();
    expect(Object.keys(page)).toEqual(['type', 'title', 'status', 'description']);
    expect(page).toMatchObject({
      type: '/problems/unauthorized',
      title: 'Missing or invalid API key',
      status: 401,
    });
    expect(page.description).toMatch(/Do not retry/);
    const noAccept = await app.inject({ url: type });
    expect(noAccept.body).toBe(response.body);
  });

  it('serves HTML to a browser', async () => {
    const response = await app.inject({
      url: '/problems/rate-limited',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<h1>Too many requests</h1>');
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('answers 404 for a name that is no problem type, as a problem', async () => {
    for (const url of ['/problems/nope', '/problems/constructor', '/problems/__proto__']) {
      const response = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(response.json<{ type: string }>().type).toBe('/problems/not-found');
    }
  });
});
