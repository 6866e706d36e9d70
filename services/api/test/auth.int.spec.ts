import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { generateApiKey } from '@directory/domain';
import { nodeArguments } from '@directory/testing';
import {
  TEST_ABUSE_LIMITS,
  createApiHarness,
  createCaller,
  type ApiHarness,
  type Caller,
} from './support/api-harness.js';
import { expectProblem } from './support/problem.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('authentication', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let call: Caller;
  let secret: string;
  let keyId: string;
  const logs: string[] = [];

  beforeAll(async () => {
    harness = await createApiHarness('api-auth');
    app = await harness.newApp({ logLevel: 'info', logStream: { write: (line) => void logs.push(line) } });
    call = await createCaller(app);
    ({ id: keyId, secret } = await harness.createKey('auth@example.com', 'primary'));
  });
  afterAll(() => harness.close());

  it('accepts the key in X-API-Key (canonical) and returns its metadata, never the secret', async () => {
    const response = await call({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ key: Record<string, string> }>();
    expect(Object.keys(body.key).sort()).toEqual(['creationTime', 'id', 'name', 'prefix']);
    expect(body.key.id).toBe(keyId);
    expect(body.key.name).toBe('primary');
    expect(secret.startsWith(body.key.prefix ?? '-')).toBe(true);
    expect(response.body).not.toContain(secret);
    expect(new Date(body.key.creationTime ?? '').toISOString()).toBe(body.key.creationTime);
  });

  it('accepts Authorization: Bearer (any scheme casing)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const response = await call({ url: '/api/v1/key', headers: { authorization: `${scheme} ${secret}` } });
      expect(response.statusCode).toBe(200);
    }
  });

  it('answers missing, malformed, unknown and revoked keys with the same 401 problem', async () => {
    const unknown = generateApiKey(new Uint8Array(32).fill(7)).secret;
    const tampered = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a');
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-api-key': '' },
      { 'x-api-key': 'not-a-key' },
      { 'x-api-key': tampered },
      { 'x-api-key': unknown },
      { authorization: `Basic ${Buffer.from(`user:${secret}`).toString('base64')}` },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${unknown}` },
    ];
    const bodies = new Set<string>();
    for (const headers of attempts) {
      const response = await call({ url: '/api/v1/key', headers });
      const problem = expectProblem(response, 401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
      bodies.add(JSON.stringify(problem));
    }
    expect(bodies.size).toBe(1);
  });

  it('rejects a malformed key without touching the database', async () => {
    // A second app whose database pool points at a closed port: a lookup would fail with 500.
    const { createDatabase } = await import('@directory/database');
    const { buildApp } = await import('../src/app.js');
    const deadDb = createDatabase('postgres://postgres@127.0.0.1:9/none', { maxConnections: 1 });
    const isolated = await buildApp(
      {
        db: deadDb,
        redis: harness.redis.redis,
        redisPrefix: harness.redis.prefix,
        datasets: harness.datasets,
        cursorSecret: 'x'.repeat(40),
        rateLimit: { max: 100, windowSeconds: 60 },
        ...TEST_ABUSE_LIMITS,
      },
      { logLevel: false },
    );
    try {
      const malformed = await isolated.inject({
        url: '/api/v1/key',
        headers: { 'x-api-key': 'dk_live_short' },
      });
      expectProblem(malformed, 401);
      const wellFormed = await isolated.inject({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
      // Proves the well-formed one did reach the (dead) database: an outage is a 503 problem.
      expectProblem(wellFormed, 503);
    } finally {
      await isolated.close();
      await deadDb.destroy();
    }
  });

  it('makes a revocation effective on the very next request, in every app instance', async () => {
    const { id, secret: doomed } = await harness.createKey('auth@example.com', 'doomed');
    const other = await harness.newApp();
    expect((await call({ url: '/api/v1/key', headers: { 'x-api-key': doomed } })).statusCode).toBe(200);
    expect((await other.inject({ url: '/api/v1/key', headers: { 'x-api-key': doomed } })).statusCode).toBe(
      200,
    );
    await harness.revokeKey(id);
    expectProblem(await call({ url: '/api/v1/key', headers: { 'x-api-key': doomed } }), 401);
    expectProblem(await other.inject({ url: '/api/v1/key', headers: { 'x-api-key': doomed } }), 401);
  });

  it('makes a revocation done with the operator CLI effective on the next request of every instance', async () => {
    const { id, secret: doomed } = await harness.createKey('cli-revoke@example.com', 'cli doomed');
    const other = await harness.newApp();
    expect((await call({ url: '/api/v1/key', headers: { 'x-api-key': doomed } })).statusCode).toBe(200);
    await run(process.execPath, nodeArguments('packages/keys/src/keys.cli.ts', ['revoke', id]), {
      cwd: root,
      // The same database and Redis prefix as the API, as every process of one deployment has.
      env: { ...process.env, DATABASE_URL: harness.database.url, REDIS_PREFIX: harness.redis.prefix },
    });
    expectProblem(await call({ url: '/api/v1/key', headers: { 'x-api-key': doomed } }), 401);
    expectProblem(await other.inject({ url: '/api/v1/key', headers: { 'x-api-key': doomed } }), 401);
  });

  it('rejects a key in the query string with 400, before authentication, never echoing or logging it', async () => {
    const names = ['api_key', 'apiKey', 'key', 'x-api-key', 'access_token', 'token', 'Authorization'];
    for (const name of names) {
      for (const url of [
        `/api/v1/doctors?country=de&${name}=${secret}`,
        `/api/v1/key?${name}=${secret}`,
        `/api/v1/doctors/abc?${name}=${secret}`,
      ]) {
        const headerSets: Array<Record<string, string>> = [{}, { 'x-api-key': secret }];
        for (const headers of headerSets) {
          const response = await call({ url, headers });
          const problem = expectProblem(response, 400);
          expect(problem.errors.some((error) => /header/i.test(error.reason))).toBe(true);
          expect(response.body).not.toContain(secret);
        }
      }
    }
    // A secret pasted as a parameter name is caught too.
    const asName = await call({
      url: `/api/v1/doctors?country=de&${secret}`,
      headers: { 'x-api-key': secret },
    });
    expectProblem(asName, 400);
    expect(asName.body).not.toContain(secret);
  });

  it('never writes a secret to the logs (headers redacted, URLs sanitized), and logs request ids', async () => {
    await call({ url: `/api/v1/doctors?country=de&api_key=${secret}`, headers: { 'x-api-key': secret } });
    await call({ url: `/api/v1/doctors/${secret}`, headers: { authorization: `Bearer ${secret}` } });
    await call({
      url: `/api/v1/doctors?q=${encodeURIComponent(secret)}&country=de`,
      headers: { 'x-api-key': secret },
    });
    const text = logs.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(8, 30));
    const lines = logs.map((line) => JSON.parse(line) as { reqId?: string });
    expect(lines.some((line) => typeof line.reqId === 'string' && line.reqId.length === 36)).toBe(true);
  });

  it('echoes the request id in X-Request-Id', async () => {
    const response = await call({
      url: '/api/v1/key',
      headers: { 'x-api-key': secret, 'x-request-id': 'mine' },
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
