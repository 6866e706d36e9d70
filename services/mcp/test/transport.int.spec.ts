import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { rateLimitRedisKey } from '@directory/keyed-access';
import { createMcpHarness, postMcp, type McpHarness } from './support/mcp-harness.js';

type ProblemBody = { type: string; title: string; status: number; detail: string; errors: unknown[] };

async function expectProblem(response: Response, status: number): Promise<ProblemBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as ProblemBody;
  expect(body.status).toBe(status);
  return body;
}

async function httpStatusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(StreamableHTTPError);
    return (error as StreamableHTTPError).code;
  }
}

describe('MCP transport: auth, limits and hardening before any MCP handling', () => {
  let harness: McpHarness;
  let url: URL;
  let secret: string;
  const logs: string[] = [];
  const bearer = () => ({ authorization: `Bearer ${secret}` });

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-transport');
    ({ secret } = await harness.createKey());
    url = await harness.startMcp({
      allowedOrigins: ['https://console.example.com'],
      allowedHosts: ['mcp.example.com'],
      logStream: { write: (line) => void logs.push(line) },
    });
  });
  afterAll(() => harness.close());

  it('serves a key sent as Bearer (and as X-API-Key) with the rate-limit headers', async () => {
    for (const headers of [bearer(), { 'x-api-key': secret }]) {
      const response = await postMcp(url, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('10000');
      expect(response.headers.get('ratelimit-policy')).toBe('"key";q=10000;w=60');
      expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
      expect(response.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
      expect(response.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/);
      const body = (await response.json()) as { result: { tools: unknown[] } };
      expect(body.result.tools).toHaveLength(3);
    }
  });

  it('answers a missing, malformed, unknown or wrong-scheme key with 401 problem+json and WWW-Authenticate', async () => {
    const unknown = generateApiKey(new Uint8Array(32).fill(3)).secret;
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${unknown}` },
      { authorization: `Basic ${Buffer.from(`u:${secret}`).toString('base64')}` },
    ];
    for (const headers of attempts) {
      const response = await postMcp(url, headers);
      await expectProblem(response, 401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(await httpStatusOf(harness.connect(url, unknown))).toBe(401);
  });

  it('makes a revocation effective on the next call of a connected client', async () => {
    const doomed = await harness.createKey('doomed@example.com');
    const client = await harness.connect(url, doomed.secret);
    const before = (await client.callTool({
      name: 'search_doctors',
      arguments: { country: 'pt' },
    })) as CallToolResult;
    expect(before.isError ?? false).toBe(false);
    await harness.revokeKey(doomed.id);
    const status = await httpStatusOf(
      client.callTool({ name: 'search_doctors', arguments: { country: 'pt' } }),
    );
    expect(status).toBe(401);
  });

  it('refuses a foreign Origin (403); accepts none, or the allowlisted one with CORS headers', async () => {
    const foreign = await postMcp(url, { ...bearer(), origin: 'https://evil.example' });
    expect((await expectProblem(foreign, 403)).type).toBe('/problems/forbidden-origin');
    expect(await httpStatusOf(harness.connect(url, secret, { Origin: 'https://evil.example' }))).toBe(403);
    expect((await postMcp(url, { ...bearer(), origin: 'null' })).status).toBe(403);
    const allowed = await postMcp(url, { ...bearer(), origin: 'https://console.example.com' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
    expect(allowed.headers.get('access-control-expose-headers')?.split(', ')).toContain('RateLimit');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://console.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const foreignPreflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreignPreflight.status).toBe(403);
    // Checked before the key: no database lookup for a cross-site request.
    await expectProblem(await postMcp(url, { origin: 'https://evil.example' }), 403);
  });

  it('refuses a Host it does not serve (DNS rebinding) and accepts loopback names and configured hosts', async () => {
    const port = url.port;
    const at = (host: string) =>
      new Promise<number>((resolve, reject) => {
        // fetch() cannot set Host: use node:http.
        void import('node:http').then(({ request }) => {
          const outgoing = request(
            {
              host: '127.0.0.1',
              port,
              path: '/mcp',
              method: 'POST',
              headers: {
                host,
                ...bearer(),
                accept: 'application/json, text/event-stream',
                'content-type': 'application/json',
              },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          outgoing.on('error', reject);
          outgoing.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
        });
      });
    expect(await at(`attacker.example:${port}`)).toBe(403);
    expect(await at('127.0.0.1:1')).toBe(403);
    expect(await at(`127.0.0.1:${port}`)).toBe(200);
    expect(await at(`localhost:${port}`)).toBe(200);
    expect(await at('mcp.example.com')).toBe(200);
  });

  it('rejects unsupported MCP-Protocol-Version values with 400 and accepts supported ones', async () => {
    const bad = await postMcp(url, { ...bearer(), 'mcp-protocol-version': '1999-01-01' });
    expect((await expectProblem(bad, 400)).type).toBe('/problems/unsupported-protocol-version');
    expect((await postMcp(url, { ...bearer(), 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
  });

  it('allows only POST: GET and DELETE get 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { ...bearer(), accept: 'text/event-stream' } });
      await expectProblem(response, 405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('limits the body size (413) and answers non-JSON bodies with a problem', async () => {
    const huge = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { padding: 'x'.repeat(70 * 1024) } };
    await expectProblem(await postMcp(url, bearer(), huge), 413);
    await expectProblem(await postMcp(url, { ...bearer(), 'content-type': 'text/plain' }, 'hello'), 415);
  });

  it('never writes the key to the logs', async () => {
    await postMcp(url, bearer());
    await postMcp(url, { authorization: `Bearer ${secret}x` });
    const text = logs.join('');
    expect(text).toContain('request completed');
    expect(text).not.toContain(secret.slice(8, 30));
  });
});

describe('MCP rate limit: the API quota, shared by key across both transports', () => {
  let harness: McpHarness;

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-rate-limit');
  });
  afterAll(() => harness.close());

  it('counts MCP and API requests of one key against one window, then answers 429', async () => {
    const limit = { max: 3, windowSeconds: 30 };
    const url = await harness.startMcp({ rateLimit: limit });
    const api = await harness.api({ rateLimit: limit });
    const { id, secret } = await harness.createKey('limited@example.com');
    const headers = { authorization: `Bearer ${secret}` };

    expect((await api.inject({ url: '/api/v1/key', headers })).headers['ratelimit-remaining']).toBe('2');
    const first = await postMcp(url, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('ratelimit-policy')).toBe('"key";q=3;w=30');
    expect((await postMcp(url, headers)).status).toBe(200);
    const limited = await postMcp(url, headers);
    expect((await expectProblem(limited, 429)).type).toBe('/problems/rate-limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.inject({ url: '/api/v1/key', headers })).statusCode).toBe(429);
    expect(await harness.redis.redis.get(rateLimitRedisKey(harness.redis.prefix, id))).toBe('5');
  });
});
