import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DirectoryApiError } from '../src/errors.js';
import {
  CLIENT_VERSION,
  DEFAULT_RETRY,
  createTransport,
  sleep,
  type TransportOptions,
} from '../src/transport.js';

const KEY = 'dk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM';
const URL_A = 'http://api.test/api/v1/doctors?country=de';

type Step = Response | Error;

/** A transport over a scripted fetch: each call takes the next step; the requests and waits are recorded. */
function scripted(steps: Step[], overrides: Partial<TransportOptions> = {}) {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const waits: number[] = [];
  const transport = createTransport({
    apiKey: KEY,
    fetch: (input, init) => {
      requests.push({
        url: input instanceof Request ? input.url : input.toString(),
        headers: { ...(init?.headers as Record<string, string>) },
      });
      const step = steps.shift();
      if (step === undefined) throw new Error('no more scripted answers');
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    },
    retry: DEFAULT_RETRY,
    userAgent: 'acme/1.0',
    etagCache: {},
    random: () => 0.5,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    now: () => Date.parse('2026-11-27T07:00:00Z'),
    ...overrides,
  });
  return { transport, requests, waits };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (status: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({ type: '/problems/x', title: 'T', status, detail: 'D', errors: [], ...extra }),
    {
      status,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...headers },
    },
  );

describe('transport', () => {
  it('sends the key in X-API-Key and the product tokens in User-Agent, never the key in the URL', async () => {
    const { transport, requests } = scripted([json({ ok: true })]);
    await transport.getJson(URL_A);
    expect(requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(requests[0]?.headers['user-agent']).toMatch(/^acme\/1\.0 directory-client\/\d+\.\d+\.\d+$/);
    expect(requests[0]?.url).not.toContain(KEY);
  });

  it('revalidates with the kept ETag and answers a 304 with the kept body, a fresh copy each time', async () => {
    const { transport, requests } = scripted([
      json({ doctors: [1] }, 200, { etag: '"t1"' }),
      new Response(null, { status: 304, headers: { etag: '"t1"' } }),
    ]);
    const first = await transport.getJson<{ doctors: number[] }>(URL_A);
    first.doctors.push(2);
    const second = await transport.getJson(URL_A);
    expect(requests[0]?.headers['if-none-match']).toBeUndefined();
    expect(requests[1]?.headers['if-none-match']).toBe('"t1"');
    expect(second).toEqual({ doctors: [1] });
  });

  it('waits out Retry-After on 429 and 503, then succeeds', async () => {
    const { transport, waits } = scripted([
      problem(429, {}, { 'retry-after': '2' }),
      problem(503, {}, { 'retry-after': 'Fri, 27 Nov 2026 07:00:05 GMT' }),
      json({ ok: true }),
    ]);
    expect(await transport.getJson(URL_A)).toEqual({ ok: true });
    expect(waits).toEqual([2_000, 5_000]);
  });

  it('backs off with jitter when no Retry-After is sent, and gives up after the retries allowed', async () => {
    const { transport, waits, requests } = scripted([problem(503), problem(503), problem(503), problem(503)]);
    const error = await transport.getJson(URL_A).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DirectoryApiError);
    expect((error as DirectoryApiError).status).toBe(503);
    expect(requests).toHaveLength(1 + DEFAULT_RETRY.retries);
    // random() = 0.5: three quarters of each ceiling (250, 500, 1000 ms).
    expect(waits).toEqual([188, 375, 750]);
  });

  it('throws at once when Retry-After asks for longer than it will wait', async () => {
    const { transport, waits } = scripted([problem(429, {}, { 'retry-after': '3600' })]);
    const error = (await transport.getJson(URL_A).catch((caught: unknown) => caught)) as DirectoryApiError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(waits).toEqual([]);
  });

  it('never retries another 4xx, and types the problem: status, type, title, detail, errors, request id', async () => {
    const { transport, requests } = scripted([
      problem(400, {
        type: '/problems/invalid-parameter',
        title: 'Invalid request parameter',
        detail: 'One or more query parameters are invalid; see errors.',
        errors: [{ parameter: 'limit', reason: 'must be an integer from 1 to 100' }],
      }),
    ]);
    const error = (await transport.getJson(URL_A).catch((caught: unknown) => caught)) as DirectoryApiError;
    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({
      status: 400,
      type: '/problems/invalid-parameter',
      title: 'Invalid request parameter',
      errors: [{ parameter: 'limit', reason: 'must be an integer from 1 to 100' }],
      requestId: 'req-1',
    });
    expect(error.reasonsFor('limit')).toEqual(['must be an integer from 1 to 100']);
    expect(error.message).toContain('limit: must be an integer from 1 to 100');
  });

  it('retries a network failure, and keeps the key out of every error message', async () => {
    const { transport, requests } = scripted([
      new TypeError('fetch failed'),
      problem(401, { detail: `key ${KEY} is unknown`, errors: [{ parameter: KEY, reason: KEY }] }),
    ]);
    const error = (await transport.getJson(URL_A).catch((caught: unknown) => caught)) as DirectoryApiError;
    expect(requests).toHaveLength(2);
    expect(error.status).toBe(401);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
  });

  it('stops waiting between retries, and sends nothing more, once the signal aborts', async () => {
    const controller = new AbortController();
    const { transport, requests } = scripted([problem(503, {}, { 'retry-after': '30' })], { sleep });
    const pending = transport.getJson(URL_A, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 10);
    await expect(pending).rejects.toThrow('caller gave up');
    expect(requests).toHaveLength(1);
  });

  it('reads a body that is not a problem as about:blank with the status text', async () => {
    const { transport } = scripted([
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    ]);
    const error = (await transport.getJson(URL_A).catch((caught: unknown) => caught)) as DirectoryApiError;
    expect(error).toMatchObject({ status: 502, type: 'about:blank', title: 'Bad Gateway', errors: [] });
  });
});

it('names itself in User-Agent with the version its package.json publishes', () => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  expect(CLIENT_VERSION).toBe(manifest.version);
});
