import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { createKeyVouches, revokeApiKey } from '@directory/keys';
import { addressInNetwork, createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// The abuse limits one by one: failed authentications per address, unknown keys refused cheaply,
// trusted proxies, the account ceiling across keys, MCP batches, console sign-in and sign-up throttles.

let seed = 0;
const unknownKey = () => generateApiKey(new Uint8Array(32).fill((seed += 1) % 256)).secret;

function expectTooMany(response: LightMyRequestResponse | Response, windowSeconds: number): void {
  const status = 'statusCode' in response ? response.statusCode : response.status;
  const header = (name: string) =>
    'statusCode' in response ? response.headers[name] : (response.headers.get(name) ?? undefined);
  expect(status).toBe(429);
  expect(String(header('content-type'))).toMatch(/^application\/problem\+json/);
  const retryAfter = Number(header('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
}

// The vouches of the harness's processes (the same Redis prefix): a revoke bars the key there first.
const vouchesOf = (harness: SecurityHarness) => createKeyVouches(harness.redis.redis, harness.redis.prefix);

describe('abuse limits', () => {
  let harness: SecurityHarness;

  beforeAll(async () => {
    harness = await createSecurityHarness('security-limits');
  });
  afterAll(() => harness.close());

  const getKey = (app: FastifyInstance, secret: string, remoteAddress: string, headers = {}) =>
    app.inject({ url: '/api/v1/key', headers: { 'x-api-key': secret, ...headers }, remoteAddress });

  it('limits failed authentications per client address, then refuses that address before any key lookup', async () => {
    const app = await harness.api({ failedAuth: { max: 5, windowSeconds: 30, refusalDelayMs: 0 } });
    const { secret } = await harness.createKey('failures@example.com');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await getKey(app, unknownKey(), '198.51.100.1')).statusCode).toBe(401);
    }
    const refused = await getKey(app, unknownKey(), '198.51.100.1');
    expectTooMany(refused, 30);
    expect(refused.json<{ type: string }>().type).toBe('/problems/rate-limited');

    const queriesBefore = harness.queryCount();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expectTooMany(await getKey(app, unknownKey(), '198.51.100.1'), 30);
    }
    // Even a valid key from the blocked address waits: the block is per address, checked first.
    expectTooMany(await getKey(app, secret, '198.51.100.1'), 30);
    expect(harness.queryCount()).toBe(queriesBefore);

    // Another address is untouched, and its successful requests carry the usual headers.
    const other = await getKey(app, secret, '198.51.100.2');
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-limit']).toBe('100000');
    expect((await getKey(app, unknownKey(), '198.51.100.2')).statusCode).toBe(401);
  });

  it('answers a repeated unknown key from memory, while a revocation still takes effect on the next request', async () => {
    const app = await harness.api();
    const repeated = unknownKey();
    const before = harness.queryCount();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await getKey(app, repeated, '198.51.100.3')).statusCode).toBe(401);
    }
    expect(harness.queryCount() - before).toBe(1);

    const { id, secret } = await harness.createKey('revoked@example.com');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await getKey(app, secret, '198.51.100.3')).statusCode).toBe(200);
    }
    await revokeApiKey(harness.database.db, vouchesOf(harness), id);
    expect((await getKey(app, secret, '198.51.100.3')).statusCode).toBe(401);
    expect((await getKey(app, secret, '198.51.100.3')).statusCode).toBe(401);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const direct = await harness.api({ failedAuth: { max: 2, windowSeconds: 30, refusalDelayMs: 0 } });
    // A client rotating X-Forwarded-For without a trusted proxy is still one address.
    for (const forwarded of ['203.0.113.1', '203.0.113.2']) {
      const response = await getKey(direct, unknownKey(), '198.51.100.4', { 'x-forwarded-for': forwarded });
      expect(response.statusCode).toBe(401);
    }
    expectTooMany(
      await getKey(direct, unknownKey(), '198.51.100.4', { 'x-forwarded-for': '203.0.113.3' }),
      30,
    );

    // Behind a trusted proxy, each forwarded client has its own budget: one proxy address does not
    // lock everyone out.
    const proxied = await harness.api({
      failedAuth: { max: 2, windowSeconds: 30, refusalDelayMs: 0 },
      trustedProxies: ['10.0.0.0/8'],
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await getKey(proxied, unknownKey(), '10.1.2.3', { 'x-forwarded-for': '203.0.113.10' });
    }
    expectTooMany(await getKey(proxied, unknownKey(), '10.1.2.3', { 'x-forwarded-for': '203.0.113.10' }), 30);
    expect(
      (await getKey(proxied, unknownKey(), '10.1.2.3', { 'x-forwarded-for': '203.0.113.11' })).statusCode,
    ).toBe(401);
  });

  it('counts every address of one IPv6 /64 as one client (API and MCP), other networks apart', async () => {
    const settings = {
      failedAuth: { max: 10, windowSeconds: 30, refusalDelayMs: 0 },
      trustedProxies: ['127.0.0.1'],
    };
    const api = await harness.api(settings);
    const statuses: number[] = [];
    for (let index = 0; index < 40; index += 1) {
      const response = await getKey(api, unknownKey(), '127.0.0.1', {
        'x-forwarded-for': addressInNetwork('2001:db8:a:1', index),
      });
      statuses.push(response.statusCode);
      if (index === 39) expectTooMany(response, 30);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    // The next /64, and an IPv4 client, have budgets of their own.
    for (const other of [addressInNetwork('2001:db8:a:2', 0), '198.51.100.50']) {
      const response = await getKey(api, unknownKey(), '127.0.0.1', { 'x-forwarded-for': other });
      expect(response.statusCode).toBe(401);
    }

    const mcp = await harness.listen(await harness.mcp(settings));
    const mcpStatuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const response = await fetch(`${mcp}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': unknownKey(),
          'x-forwarded-for': addressInNetwork('2001:db8:b:1', index),
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      await response.body?.cancel();
      mcpStatuses.push(response.status);
    }
    expect(mcpStatuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
  });

  it('costs a request without any key no failure point: keyless floods cannot lock out an address', async () => {
    const app = await harness.api({ failedAuth: { max: 5, windowSeconds: 30, refusalDelayMs: 0 } });
    const { secret } = await harness.createKey('keyless@example.com');
    const address = '198.51.100.60';
    const noKey = [{}, { 'x-api-key': '' }, { authorization: 'Basic dTpw' }];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const response = await app.inject({
        url: '/api/v1/key',
        headers: noKey[attempt % noKey.length],
        remoteAddress: address,
      });
      expect(response.statusCode).toBe(401);
    }
    expect((await getKey(app, secret, address)).statusCode).toBe(200);
    // Wrong keys from that address still count.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await getKey(app, unknownKey(), address)).statusCode).toBe(401);
    }
    expectTooMany(await getKey(app, unknownKey(), address), 30);
  });

  it('holds an account to its ceiling across all its keys, revoked and recreated ones included', async () => {
    const app = await harness.api({ rateLimit: { max: 100, windowSeconds: 30 }, accountMax: 6 });
    const first = await harness.createKey('rolling@example.com');
    const second = await harness.createKey('rolling@example.com');
    const remaining: string[] = [];
    for (const key of [first, second, first, second]) {
      const response = await getKey(app, key.secret, '198.51.100.5');
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-policy']).toBe('"key";q=100;w=30');
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    // The per-key headers are exactly the per-key quota's, the ceiling adds none.
    expect(remaining).toEqual(['99', '99', '98', '98']);

    await revokeApiKey(harness.database.db, vouchesOf(harness), first.id);
    await revokeApiKey(harness.database.db, vouchesOf(harness), second.id);
    const rolled = await harness.createKey('rolling@example.com');
    expect((await getKey(app, rolled.secret, '198.51.100.5')).statusCode).toBe(200);
    expect((await getKey(app, rolled.secret, '198.51.100.5')).statusCode).toBe(200);
    const capped = await getKey(app, rolled.secret, '198.51.100.5');
    expectTooMany(capped, 30);
    expect(capped.json<{ detail: string }>().detail).toMatch(/account/);

    const stranger = await harness.createKey('stranger@example.com');
    expect((await getKey(app, stranger.secret, '198.51.100.5')).statusCode).toBe(200);
  });

  it('refuses an MCP batch of 100 tool calls whole: 400, no tool runs, no quota spent', async () => {
    const app = await harness.mcp({ rateLimit: { max: 1_000, windowSeconds: 60 } });
    const base = await harness.listen(app);
    const { secret } = await harness.createKey('batch@example.com');
    const post = (body: unknown) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secret}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_doctors', arguments: { country: 'de' } },
    });

    const single = await post(call(0));
    expect(single.status).toBe(200);
    const remainingBefore = Number(single.headers.get('ratelimit-remaining'));
    const directoryCallsBefore = harness.directoryCalls();

    const batch = await post(Array.from({ length: 100 }, (_, index) => call(index + 1)));
    expect(batch.status).toBe(400);
    expect(batch.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await batch.json()) as { type: string }).type).toBe('/problems/batch-not-supported');
    expect(harness.directoryCalls()).toBe(directoryCallsBefore);

    const after = await post(call(101));
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(remainingBefore - 1);
    expect(harness.directoryCalls()).toBe(directoryCallsBefore + 1);
  });
});
