import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';
import { testDataset } from '@directory/testing';
import { expectProblem } from './support/problem.js';

// More runs locally with FUZZ_RUNS=5000.
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 250);

describe('errors: problem+json everywhere, 503 when search is down, fuzzing', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-errors');
    app = await harness.newApp();
    call = await createCaller(app);
    ({ secret } = await harness.createKey());
    await harness.index(testDataset().states);
  });
  afterAll(() => harness.close());

  it('answers unknown routes with a 404 problem, even without a key', async () => {
    for (const url of ['/', '/api/v2/doctors', '/api/v1/nothing', '/api/v1/doctors/a/b']) {
      expect(expectProblem(await app.inject({ url }), 404).type).toBe('/problems/not-found');
    }
  });

  it('answers an undecodable URL with a 400 problem', async () => {
    const response = await app.inject({ url: '/api/v1/doctors/%E0%A4%A', headers: { 'x-api-key': secret } });
    expect(response.statusCode).toBeLessThan(500);
    expectProblem(response, response.statusCode);
  });

  it('serves the human reference at /docs without a key', async () => {
    const page = await app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.toLowerCase()).toContain('swagger');
  });

  describe('Elasticsearch unavailable', () => {
    let silent: Server;
    const sockets: Socket[] = [];
    let silentUrl = '';
    beforeAll(async () => {
      // Accepts connections and never answers: a hung cluster.
      silent = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const address = silent.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      silentUrl = `http://127.0.0.1:${address.port}`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    for (const [label, url] of [
      ['refused (closed port)', 'http://127.0.0.1:9'],
      ['hung (never answers)', () => silentUrl],
    ] as const) {
      it(`answers 503 quickly when the cluster is ${label}, without internals`, async () => {
        const down = await createCaller(
          await harness.newApp({ elasticsearchUrl: typeof url === 'string' ? url : url() }),
        );
        for (const path of ['/api/v1/doctors?country=de', '/api/v1/doctors/de-mueller']) {
          const started = Date.now();
          const response = await down({ url: path, headers: { 'x-api-key': secret } });
          // A 503 problem within about two seconds, never a hang (docs/api.md, "Operations notes").
          expect(Date.now() - started).toBeLessThan(2_500);
          const problem = expectProblem(response, 503);
          expect(JSON.stringify(problem)).not.toMatch(/elastic|ECONNREFUSED|timeout|127\.0\.0\.1|stack/i);
        }
        // Key validation does not need the search cluster.
        expect((await down({ url: '/api/v1/key', headers: { 'x-api-key': secret } })).statusCode).toBe(200);
      });
    }
  });

  it('answers 503 quickly when Redis (the rate-limit store) is unreachable, never serving unlimited', async () => {
    const down = await createCaller(await harness.newApp({ redisUrl: 'redis://127.0.0.1:9' }));
    const started = Date.now();
    const response = await down({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(JSON.stringify(expectProblem(response, 503))).not.toMatch(/redis|ECONNREFUSED|127\.0\.0\.1/i);
  });

  it('answers 503 within about two seconds when Redis accepts connections and never answers (paused)', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const address = silent.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const down = await createCaller(
        await harness.newApp({ redisUrl: `redis://127.0.0.1:${address.port}` }),
      );
      const started = Date.now();
      const response = await down({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
      expect(Date.now() - started).toBeLessThan(2_500);
      expectProblem(response, 503);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  const safeChar = fc.constantFrom(
    ...Array.from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~%&=+?#/: äé€😀\u0000'),
  );
  const noise = fc.string({ unit: safeChar, maxLength: 40 });
  const names = fc.oneof(
    fc.constantFrom(
      'country',
      'city',
      'q',
      'whatsapp',
      'verified',
      'limit',
      'cursor',
      'key',
      'api_key',
      'Country',
    ),
    noise,
  );
  const values = fc.oneof(
    fc.constantFrom('de', 'DE', 'es', 'fr', 'true', 'false', '1', '25', '100', '101', '', 'berlin', 'praxis'),
    noise,
    fc.string({ maxLength: 120 }),
  );

  function expectNoServerErrorAndProblemShape(response: {
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (response.statusCode >= 400) {
      expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect((JSON.parse(response.body) as { status: number }).status).toBe(response.statusCode);
    }
  }

  it('fuzz: query strings never cause a 5xx; every 4xx is a problem with a matching status', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(names, values), { maxLength: 6 }), async (pairs) => {
        const query = pairs
          .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
          .join('&');
        const response = await call({ url: `/api/v1/doctors?${query}`, headers: { 'x-api-key': secret } });
        expectNoServerErrorAndProblemShape(response);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('fuzz: raw (possibly broken) query strings never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: safeChar, maxLength: 80 }), async (raw) => {
        const response = await app.inject({
          url: `/api/v1/doctors?country=de&${raw.replace(/[#\s]/g, '').replaceAll('\u0000', '')}`,
          headers: { 'x-api-key': secret },
        });
        expectNoServerErrorAndProblemShape(response);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('fuzz: doctorIds (ids, URLs, junk) never cause a 5xx', async () => {
    const site = 'https://www.doctor-directory.example';
    const doctorIds = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: safeChar, maxLength: 200 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc
        .tuple(fc.constantFrom('en/doctors', 'de/aerzte', 'xx/yy'), noise, noise)
        .map(([section, city, slug]) => `${site}/${section}/de/${city}/${slug}`),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,140}$/),
    );
    await fc.assert(
      fc.asyncProperty(doctorIds, async (doctorId) => {
        const response = await call({
          url: `/api/v1/doctors/${encodeURIComponent(doctorId)}`,
          headers: { 'x-api-key': secret },
        });
        expectNoServerErrorAndProblemShape(response);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });
});
