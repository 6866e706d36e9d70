import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@directory/database';
import { toSearchDocument, type Doctor, type ExportTrailer } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import { createExportLeases, exportLeasesRedisKey } from '../src/routes/exports/export-leases.js';
import type { ExportLimits } from '../src/routes/exports/export-limits.js';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';

/**
 * The limits that keep one account from pinning the database or the export slots (docs/security.md,
 * "Exports"), against a running API over the real servers. The dataset is larger than every buffer
 * between the store and a stalled client (about 9 MB of records against a few MB of socket buffers),
 * so a stalled export really waits part way.
 */
const RECORDS = 15_000;
const ids = Array.from({ length: RECORDS }, (_, at) => `lim-${String(at).padStart(5, '0')}`);

type Exported = { records: Doctor[]; trailer: ExportTrailer['export'] };
type Answer = { status: number; headers: IncomingMessage['headers']; body: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseExport(text: string): Exported {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const last = JSON.parse(lines.pop() ?? 'null') as ExportTrailer;
  expect(last.export).toBeDefined();
  return { records: lines.map((line) => JSON.parse(line) as Doctor), trailer: last.export };
}

function send(base: string, path: string, key: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: { 'x-api-key': key } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * An export read by a slow client: about 1 KB a second (`bytesPerSecond: 0` reads nothing at all)
 * until `finish` reads the rest at full speed, to its end or until the server cuts the connection.
 */
type SlowExport = {
  status: number;
  /** Drops the connection (so a failed test leaves no response for the app's close to wait for). */
  drop: () => void;
  headers: IncomingMessage['headers'];
  finish: () => Promise<string>;
};

const slowClients: SlowExport[] = [];

function slowExport(base: string, key: string, bytesPerSecond = 1024): Promise<SlowExport> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api/v1/exports/de`, { headers: { 'x-api-key': key } }, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      const trickle = setInterval(() => {
        const chunk = bytesPerSecond > 0 ? (res.read(bytesPerSecond) as Buffer | null) : null;
        if (chunk !== null) chunks.push(chunk);
      }, 1_000);
      res.on('close', () => clearInterval(trickle));
      res.on('error', () => undefined);
      const slow: SlowExport = {
        drop: () => req.destroy(),
        status: res.statusCode ?? 0,
        headers: res.headers,
        finish: () =>
          new Promise((resolveText) => {
            clearInterval(trickle);
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            // A connection the server cut ends without 'end': what arrived until then.
            res.on('close', () => resolveText(Buffer.concat(chunks).toString('utf8')));
            res.on('error', () => undefined);
            res.resume();
          }),
      };
      slowClients.push(slow);
      resolve(slow);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The rest of an export (all of it without `from`), resumed until a trailer says complete. A resume
 * that comes before the server has freed the previous response's slot gets 429: it waits a moment, as a
 * client honouring Retry-After would.
 */
async function exportRest(base: string, key: string, from?: { resume: string; after: string }) {
  const records: Doctor[] = [];
  let responses = 0;
  let resume = from?.resume;
  let after = from?.after;
  for (let attempts = 0; attempts < 100; attempts += 1) {
    const query = new URLSearchParams();
    if (resume !== undefined) query.set('resume', resume);
    if (after !== undefined) query.set('after', after);
    const answer = await send(
      base,
      `/api/v1/exports/de${query.size === 0 ? '' : `?${query.toString()}`}`,
      key,
    );
    if (answer.status === 429) {
      await sleep(200);
      continue;
    }
    expect(answer.status, answer.body).toBe(200);
    resume ??= String(answer.headers['export-resume']);
    const part = parseExport(answer.body);
    responses += 1;
    records.push(...part.records);
    after = records.at(-1)?.id ?? after;
    if (part.trailer.complete) return { records, responses };
  }
  throw new Error('the export did not complete');
}

describe('export limits', () => {
  let harness: ApiHarness;

  const store = async (db: Database) => {
    for (let from = 0; from < RECORDS; from += 1_000) {
      await savePlaceStates(
        db,
        ids.slice(from, from + 1_000).map((id) => ({
          placeId: id,
          stateVersion: 1,
          document: toSearchDocument(placeState({ id, name: `Praxis ${id}`, country: 'de' }), {
            siteOrigin: SITE_ORIGIN,
          }),
        })),
      );
    }
  };

  /** The oldest transaction open now in this database, other than the asking session's (ms). */
  const longestOpenTransactionMs = async (): Promise<number> => {
    const result = await sql<{ ms: number }>`
      select coalesce(max(extract(epoch from clock_timestamp() - xact_start) * 1000), 0)::float8 as ms
        from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`.execute(harness.database.db);
    return result.rows[0]?.ms ?? 0;
  };

  const listen = async (limits: Partial<ExportLimits>): Promise<{ app: FastifyInstance; base: string }> => {
    const app = await harness.newApp({ exportLimits: limits });
    return { app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
  };

  beforeAll(async () => {
    harness = await createApiHarness('api-export-limits');
    await Promise.all([store(harness.database.db), store(harness.sandbox.database.db)]);
  });
  afterEach(() => {
    for (const client of slowClients.splice(0)) client.drop();
  });
  afterAll(() => harness.close());

  it('two stalled exports hold no transaction past a page, a third account still exports, a stalled account gets 429 from every process, and the duration cap ends the stalled ones resumably', async () => {
    const limits = {
      maxConcurrent: { live: 3, test: 1 },
      maxPerAccount: 1,
      maxDurationMs: 4_000,
      leaseMs: 3_000,
    };
    const [first, second] = [await listen(limits), await listen(limits)];
    const a = await harness.createKey('stall-a@example.com', 'a');
    const b = await harness.createKey('stall-b@example.com', 'b');
    const c = await harness.createKey('stall-c@example.com', 'c');

    const stalled = [await slowExport(first.base, a.secret), await slowExport(first.base, b.secret)];
    const startedAt = Date.now();
    expect(stalled.map((answer) => answer.status)).toEqual([200, 200]);

    // Account A is at its limit, in this process and in another one, whichever of its keys asks.
    const aSecondKey = await harness.createKey('stall-a@example.com', 'a second key');
    for (const [base, key] of [
      [first.base, a.secret],
      [second.base, a.secret],
      [second.base, aSecondKey.secret],
    ] as const) {
      const refused = await send(base, '/api/v1/exports/de', key);
      expect(refused.status, refused.body).toBe(429);
      expect(String(refused.headers['content-type'])).toContain('application/problem+json');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3);
      const problem = JSON.parse(refused.body) as { status: number; detail: string };
      expect(problem.status).toBe(429);
      expect(problem.detail).toMatch(/at once/);
    }

    // While both clients trickle, every transaction of the API's database is a page's at most. (After
    // the refusals, which must come before the duration cap ends the stalled exports.)
    let longest = 0;
    for (let sample = 0; sample < 12; sample += 1) {
      longest = Math.max(longest, await longestOpenTransactionMs());
      await sleep(250);
    }
    expect(longest).toBeLessThan(1_000);

    // A third account exports the whole dataset meanwhile.
    const third = await exportRest(second.base, c.secret);
    expect(third.records.map((doctor) => doctor.id)).toEqual(ids);

    // Past the duration cap, the stalled exports end at their next page with a resumable trailer, and
    // resume to exactly the whole dataset.
    await sleep(Math.max(0, startedAt + limits.maxDurationMs + 500 - Date.now()));
    for (const [at, slow] of stalled.entries()) {
      const key = [a, b][at]?.secret ?? '';
      const cut = parseExport(await slow.finish());
      expect(cut.trailer).toMatchObject({ complete: false, changesCursor: slow.headers['changes-cursor'] });
      expect(cut.trailer.reason).toMatch(/longest an export streams \(4 seconds\); resume it now/);
      expect(cut.records.length).toBeGreaterThan(0);
      expect(cut.records.length).toBeLessThan(RECORDS);
      const last = cut.records.at(-1)?.id ?? '';
      const rest = await exportRest(first.base, key, {
        resume: String(slow.headers['export-resume']),
        after: last,
      });
      expect([...cut.records, ...rest.records]).toEqual(third.records);
    }
  });

  it('sandbox exports have slots of their own, and a client that takes nothing is cut, freeing its slots', async () => {
    const { base } = await listen({
      maxConcurrent: { live: 1, test: 1 },
      maxPerAccount: 2,
      stallLimitMs: 1_500,
      leaseMs: 600,
    });
    const d = await harness.createKey('pool-d@example.com', 'd', 'test');
    const eTest = await harness.createKey('pool-e@example.com', 'e test', 'test');
    const eLive = await harness.createKey('pool-e@example.com', 'e live', 'live');

    const held = await slowExport(base, d.secret, 0);
    expect(held.status).toBe(200);
    const busy = await send(base, '/api/v1/exports/de', eTest.secret);
    expect(busy.status, busy.body).toBe(503);
    expect(busy.headers['retry-after']).toBe('30');
    expect((JSON.parse(busy.body) as { detail: string }).detail).toMatch(/for test keys is in use \(1\)/);
    // The sandbox's slot is taken; the live one is not.
    expect((await send(base, '/api/v1/exports/de', eLive.secret, 'HEAD')).status).toBe(200);

    // The client reads nothing: once the buffers are full and no byte leaves for the stall limit, the
    // export is cut and its slots (this process's and the account's lease) are free again.
    const leases = exportLeasesRedisKey(harness.redis.prefix, { accountId: d.accountId, mode: 'test' });
    // Filling the buffers takes the server longer on busy cores: the polls allow for it.
    await expect.poll(() => harness.redis.redis.zcard(leases), { timeout: 15_000 }).toBe(0);
    await expect
      .poll(async () => (await send(base, '/api/v1/exports/de', eTest.secret, 'HEAD')).status, {
        timeout: 15_000,
      })
      .toBe(200);
    // The cut client gets what was sent before the cut, and no trailer: it resumes.
    const cut = (await held.finish()).split('\n');
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.join('\n')).not.toContain('"export":{');
  });

  it('binds a resume token to its key mode: a live token is refused with a test key and the reverse', async () => {
    const { base } = await listen({});
    const live = await harness.createKey('mode@example.com', 'live', 'live');
    const test = await harness.createKey('mode@example.com', 'test', 'test');
    const tokenOf = async (key: string) => {
      const head = await send(base, '/api/v1/exports/de', key, 'HEAD');
      expect(head.status).toBe(200);
      return encodeURIComponent(String(head.headers['export-resume']));
    };
    const tokens = { live: await tokenOf(live.secret), test: await tokenOf(test.secret) };
    for (const [key, own, other, reason] of [
      [live.secret, tokens.live, tokens.test, /issued to a test key/],
      [test.secret, tokens.test, tokens.live, /issued to a live key/],
    ] as const) {
      const refused = await send(base, `/api/v1/exports/de?resume=${other}&after=${ids[10]}`, key);
      expect(refused.status, refused.body).toBe(400);
      const problem = JSON.parse(refused.body) as { errors: Array<{ parameter: string; reason: string }> };
      expect(problem.errors.map((error) => error.parameter)).toEqual(['resume']);
      expect(problem.errors[0]?.reason).toMatch(reason);
      const resumed = await send(base, `/api/v1/exports/de?resume=${own}&after=${ids[RECORDS - 3]}`, key);
      expect(resumed.status, resumed.body).toBe(200);
      expect(parseExport(resumed.body).records.map((doctor) => doctor.id)).toEqual(ids.slice(RECORDS - 2));
      // The export's changes cursor is bound to the same mode: the same key follows the feed from it.
      const since = encodeURIComponent(String(resumed.headers['changes-cursor']));
      expect((await send(base, `/api/v1/changes?country=de&since=${since}`, key)).status).toBe(200);
    }
  });

  it('a lease of a process that died expires on its own; a renewed one does not', async () => {
    const leases = createExportLeases({
      redis: harness.redis.redis,
      prefix: harness.redis.prefix,
      leaseMs: 400,
    });
    const account = { accountId: 'leases-account', mode: 'live' as const };
    const key = exportLeasesRedisKey(harness.redis.prefix, account);

    // Taken and never released, as by a process killed mid-export.
    const orphan = await leases.acquire(account, 1);
    expect(orphan.ok).toBe(true);
    const refused = await leases.acquire(account, 1);
    expect(refused.ok ? -1 : refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.ok ? -1 : refused.retryAfterMs).toBeLessThanOrEqual(400);
    expect(await harness.redis.redis.pttl(key)).toBeGreaterThan(0);
    await expect.poll(async () => (await leases.acquire(account, 1)).ok, { timeout: 5_000 }).toBe(true);
    if (orphan.ok) expect(await orphan.lease.renew()).toBe(false);

    // A lease renewed every third of its length outlives it many times over, and an orphan beside it
    // still expires (the set itself lives on while the renewed lease does).
    await harness.redis.redis.del(key);
    const [beside, running] = [await leases.acquire(account, 2), await leases.acquire(account, 2)];
    if (!beside.ok || !running.ok) throw new Error('both slots should be free');
    for (let renewal = 0; renewal < 8; renewal += 1) {
      await sleep(130);
      expect(await running.lease.renew()).toBe(true);
    }
    const third = await leases.acquire(account, 2);
    expect(third.ok).toBe(true);
    expect((await leases.acquire(account, 2)).ok).toBe(false);
    await running.lease.release();
    expect((await leases.acquire(account, 2)).ok).toBe(true);
  });
});
