import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesPage, Doctor, ExportTrailer, PlaceState } from '@directory/domain';
import { rateLimitRedisKey } from '@directory/keyed-access';
import { placeState, storeServedPlaces } from '@directory/testing';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';
import { createOpenApiValidator } from './support/openapi-validator.js';

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };
type Exported = { records: Doctor[]; trailer: ExportTrailer['export']; headers: IncomingHttpHeaders };
type SearchPage = { doctors: Doctor[]; page: { nextCursor: string | null } };

/** More than two pages of the store and two request units, so paging, charging and resuming all show. */
const RECORDS = 2_600;
const ids = (doctors: Doctor[]) => doctors.map((doctor) => doctor.id);
const byId = (doctors: Doctor[]) => [...doctors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** A plain HTTP GET against a listening app (no automatic decompression, unlike fetch). */
function get(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** An export body's records and its trailer (the last line); fails on anything else. */
function parseExport(text: string, headers: IncomingHttpHeaders): Exported {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const last = JSON.parse(lines.pop() ?? 'null') as ExportTrailer;
  expect(last.export).toBeDefined();
  return { records: lines.map((line) => JSON.parse(line) as Doctor), trailer: last.export, headers };
}

describe('GET /api/v1/exports/{country}', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let base: string;
  let secret: string;
  let full: Exported;

  const states = Array.from({ length: RECORDS }, (_, at) =>
    placeState({ id: `exp-${String(at).padStart(5, '0')}`, name: `Praxis ${at}`, country: 'de' }),
  );
  const store = (places: PlaceState[]) =>
    storeServedPlaces(
      { db: harness.database.db, client: harness.search.client, alias: harness.alias },
      places,
    );
  const keyed = (extra: Record<string, string> = {}) => ({ 'x-api-key': secret, ...extra });
  const exportOf = async (path: string, key = secret): Promise<Exported> => {
    const answer = await get(base, path, { 'x-api-key': key });
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/x-ndjson/);
    return parseExport(answer.body.toString('utf8'), answer.headers);
  };

  /** Every record search serves in a country, through its cursors. */
  async function searchAll(country: string): Promise<Doctor[]> {
    const doctors: Doctor[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const answer = await get(base, `/api/v1/doctors?country=${country}&limit=100${suffix}`, keyed());
      expect(answer.status).toBe(200);
      const page = JSON.parse(answer.body.toString()) as SearchPage;
      doctors.push(...page.doctors);
      cursor = page.page.nextCursor;
    } while (cursor !== null);
    return doctors;
  }

  /** The changes feed from a cursor to its end. */
  async function feedFrom(
    country: string,
    since: string,
  ): Promise<{ changes: ChangesPage['changes']; cursor: string }> {
    const changes: ChangesPage['changes'] = [];
    let cursor = since;
    for (let guard = 0; guard < 100; guard += 1) {
      const url = `/api/v1/changes?country=${country}&limit=1000&since=${encodeURIComponent(cursor)}`;
      const answer = await get(base, url, keyed());
      expect(answer.status, answer.body.toString()).toBe(200);
      const page = JSON.parse(answer.body.toString()) as ChangesPage;
      changes.push(...page.changes);
      cursor = page.page.nextCursor;
      if (!page.page.hasMore) return { changes, cursor };
    }
    throw new Error('the feed did not end');
  }

  const openTransactions = async () => {
    const result = await sql<{ open: number }>`
      select count(*)::int as open from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%'`.execute(harness.database.db);
    return result.rows[0]?.open ?? 0;
  };

  beforeAll(async () => {
    harness = await createApiHarness('api-exports');
    app = await harness.newApp();
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    ({ secret } = await harness.createKey());
    await store(states);
    full = await exportOf('/api/v1/exports/de');
  });
  afterAll(() => harness.close());

  it('exports exactly what search serves, and its cursor leaves nothing for the feed when nothing changed', async () => {
    expect(full.records).toHaveLength(RECORDS);
    // In id order, each record as search returns it.
    expect(ids(full.records)).toEqual([...ids(full.records)].sort());
    expect(full.records).toEqual(byId(await searchAll('de')));
    expect(full.trailer).toEqual({
      country: 'de',
      records: RECORDS,
      complete: true,
      changesCursor: full.headers['changes-cursor'],
    });
    expect(full.headers['export-resume']).toEqual(expect.any(String));
    // Every line, the trailer too, as the OpenAPI document describes a line (open and closed).
    const validator = await createOpenApiValidator(app);
    for (const line of [...full.records, { export: full.trailer }]) {
      validator.checkBody('/api/v1/exports/{country}', 'get', '200', 'application/x-ndjson', line);
    }
    const after = await feedFrom('de', full.trailer.changesCursor);
    expect(after.changes).toEqual([]);
    // An empty dataset: only the trailer.
    const empty = await exportOf('/api/v1/exports/MX');
    expect(empty.records).toEqual([]);
    expect(empty.trailer).toMatchObject({ country: 'mx', records: 0, complete: true });
  });

  it('compresses with gzip when the request accepts it, and only then', async () => {
    const zipped = await get(base, '/api/v1/exports/de', keyed({ 'accept-encoding': 'br;q=1, gzip;q=0.5' }));
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    const unzipped = parseExport(gunzipSync(zipped.body).toString('utf8'), zipped.headers);
    expect(unzipped.records).toEqual(full.records);
    expect(unzipped.trailer).toEqual(full.trailer);
    expect(zipped.body.length).toBeLessThan(gunzipSync(zipped.body).length / 3);

    const refused = await get(base, '/api/v1/exports/de', keyed({ 'accept-encoding': 'gzip;q=0, identity' }));
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(parseExport(refused.body.toString('utf8'), refused.headers).records).toHaveLength(RECORDS);
  });

  it('resumes a dropped connection after the last record received: together exactly the full export', async () => {
    // Read part of the stream, then drop the connection.
    const partial = await new Promise<{ text: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
      const req = httpRequest(`${base}/api/v1/exports/de`, { headers: keyed() }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > 200_000) {
            req.destroy();
            resolve({ text, headers: res.headers });
          }
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.on('close', () => reject(new Error('the export ended before it was dropped')));
      req.end();
    });
    const complete = partial.text.slice(0, partial.text.lastIndexOf('\n'));
    const received = complete.split('\n').map((line) => JSON.parse(line) as Doctor);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(RECORDS);
    const last = received[received.length - 1]?.id ?? '';

    const token = encodeURIComponent(String(partial.headers['export-resume']));
    const rest = await exportOf(`/api/v1/exports/de?resume=${token}&after=${last}`);
    expect(rest.trailer).toEqual({ ...full.trailer, records: RECORDS - received.length });
    expect(rest.headers['changes-cursor']).toBe(full.trailer.changesCursor);
    expect([...received, ...rest.records]).toEqual(full.records);
    // The dropped export's transaction was ended, not left open.
    await expect.poll(openTransactions, { timeout: 5_000 }).toBe(0);
  });

  it('streams at most EXPORTS_MAX_CONCURRENT exports at once: one more waits with 503 and Retry-After', async () => {
    const single = await harness.newApp({ exportLimits: { maxConcurrent: { live: 1, test: 1 } } });
    const singleBase = await single.listen({ host: '127.0.0.1', port: 0 });
    // The first export holds its slot while its client has read only a little and reads no more.
    const held = await new Promise<{ drop: () => void }>((resolve, reject) => {
      const req = httpRequest(`${singleBase}/api/v1/exports/de`, { headers: keyed() }, (res) => {
        res.once('data', () => {
          res.pause();
          resolve({ drop: () => req.destroy() });
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.once('close', () => reject(new Error('the held export ended')));
      req.end();
    });
    const refused = await get(singleBase, '/api/v1/exports/de', keyed());
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(String(refused.headers['content-type'])).toContain('application/problem+json');
    // A dropped client frees its slot: the next export runs whole.
    held.drop();
    await expect
      .poll(async () => (await get(singleBase, '/api/v1/exports/de', keyed())).status, { timeout: 5_000 })
      .toBe(200);
    await expect.poll(openTransactions, { timeout: 5_000 }).toBe(0);
  });

  it('charges one unit per started thousand records, and stops cleanly when the quota runs out', async () => {
    const limited = await harness.newApp({ rateLimit: { max: 2, windowSeconds: 600 } });
    const limitedBase = await limited.listen({ host: '127.0.0.1', port: 0 });
    const key = await harness.createKey('quota@example.com', 'small quota');
    const answer = await get(limitedBase, '/api/v1/exports/de', { 'x-api-key': key.secret });
    expect(answer.status).toBe(200);
    const stopped = parseExport(answer.body.toString('utf8'), answer.headers);
    expect(stopped.trailer).toMatchObject({
      country: 'de',
      records: 2_000,
      complete: false,
      changesCursor: full.trailer.changesCursor,
    });
    expect(stopped.trailer.reason).toMatch(/resume after \d+ seconds/);
    expect(stopped.records).toEqual(full.records.slice(0, 2_000));
    const counted = await harness.redis.redis.get(rateLimitRedisKey(harness.redis.prefix, key.id));
    expect(Number(counted)).toBe(Math.ceil(2_000 / 1_000));
    // The quota is spent: the next request is refused outright.
    expect((await get(limitedBase, '/api/v1/exports/de', { 'x-api-key': key.secret })).status).toBe(429);
  });

  it('answers HEAD with the headers alone, reading (and charging) no record', async () => {
    const key = await harness.createKey('head@example.com', 'head');
    const head = await app.inject({
      method: 'HEAD',
      url: '/api/v1/exports/de',
      headers: { 'x-api-key': key.secret },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['changes-cursor']).toBe(full.trailer.changesCursor);
    expect(head.headers['export-resume']).toEqual(expect.any(String));
    expect(head.body).toBe('');
    // The request's own unit only, a while later: the records were never read, so none was charged.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(Number(await harness.redis.redis.get(rateLimitRedisKey(harness.redis.prefix, key.id)))).toBe(1);
    await expect.poll(openTransactions, { timeout: 5_000 }).toBe(0);
  });

  it('rejects bad parameters naming them, and requests without a key', async () => {
    const problem = async (path: string) => {
      const answer = await get(base, path, keyed());
      expect(answer.status, answer.body.toString()).toBe(400);
      const body = JSON.parse(answer.body.toString()) as { errors: Array<{ parameter: string }> };
      return body.errors.map((error) => error.parameter);
    };
    const token = encodeURIComponent(String(full.headers['export-resume']));
    const feedCursor = encodeURIComponent(full.trailer.changesCursor);
    expect(await problem('/api/v1/exports/xx')).toEqual(['country']);
    expect(await problem('/api/v1/exports/de?resume=not-a-token')).toEqual(['resume']);
    expect(await problem(`/api/v1/exports/de?resume=${token.slice(0, -4)}`)).toEqual(['resume']);
    expect(await problem(`/api/v1/exports/fr?resume=${token}`)).toEqual(['resume']);
    expect(await problem(`/api/v1/exports/de?resume=${feedCursor}`)).toEqual(['resume']);
    expect(await problem(`/api/v1/exports/de?resume=${token}&after=a%20b`)).toEqual(['after']);
    expect(await problem('/api/v1/exports/de?after=exp-00001')).toEqual(['after']);
    expect(await problem(`/api/v1/exports/de?resume=${token}&resume=${token}`)).toEqual(['resume']);
    expect(await problem('/api/v1/exports/de?limit=5')).toEqual(['limit']);
    expect((await get(base, '/api/v1/exports/de', {})).status).toBe(401);
  });

  it('reads the sandbox with a test key, never the live dataset', async () => {
    const sandboxPlace = placeState({ id: 'sandbox-only', name: 'Sandbox Praxis', country: 'pt' });
    await storeServedPlaces(
      { db: harness.sandbox.database.db, client: harness.search.client, alias: harness.sandbox.alias },
      [sandboxPlace],
    );
    const testKey = await harness.createKey('sandbox@example.com', 'test', 'test');
    expect(ids((await exportOf('/api/v1/exports/pt', testKey.secret)).records)).toEqual(['sandbox-only']);
    expect((await exportOf('/api/v1/exports/pt')).records).toEqual([]);
    expect((await exportOf('/api/v1/exports/de', testKey.secret)).records).toEqual([]);
  });

  // Last: it changes the dataset the other tests export.
  it('sees a write made during the export exactly once, export and feed together equal to search', async () => {
    const changedId = states[states.length - 1]?.placeId ?? '';
    const changed = placeState({ id: changedId, name: 'Praxis geändert', country: 'de', version: 2 });
    const added = placeState({ id: 'exp-zz-new', name: 'Praxis neu', country: 'de' });

    // The horizon is fixed before the headers come; the write lands while the body is still to be read.
    const during = await new Promise<Exported>((resolve, reject) => {
      const req = httpRequest(`${base}/api/v1/exports/de`, { headers: keyed() }, (res) => {
        res.pause();
        store([changed, added]).then(() => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(parseExport(text, res.headers)));
          res.resume();
        }, reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(ids(during.records)).not.toContain(added.placeId);
    // Each page is read at the horizon: the changed place comes in its old state when its page was read
    // before the write, else not at all (the feed has it); never in its new state.
    const listedChanged = during.records.find((doctor) => doctor.id === changedId);
    expect(during.records).toHaveLength(listedChanged === undefined ? RECORDS - 1 : RECORDS);
    expect(listedChanged?.name ?? `Praxis ${RECORDS - 1}`).toBe(`Praxis ${RECORDS - 1}`);

    const feed = await feedFrom('de', during.trailer.changesCursor);
    expect(feed.changes.map((change) => [change.id, change.change, change.doctor?.name])).toEqual([
      [changedId, 'upsert', 'Praxis geändert'],
      [added.placeId, 'upsert', 'Praxis neu'],
    ]);
    // The feed after an export is an API 1.3 one: each entry says when its change was made.
    for (const change of feed.changes) expect(change).toHaveProperty('changedAt', expect.any(String));
    // Each new state seen exactly once between the export and the feed.
    const seen = [
      ...during.records,
      ...feed.changes.flatMap((change) => (change.doctor ? [change.doctor] : [])),
    ];
    expect(seen.filter((doctor) => doctor.name === 'Praxis geändert')).toHaveLength(1);
    expect(seen.filter((doctor) => doctor.id === added.placeId)).toHaveLength(1);

    // Applied as a mirror: the export, then the feed in order.
    const mirror = new Map(during.records.map((doctor) => [doctor.id, doctor]));
    for (const change of feed.changes) {
      if (change.change === 'upsert' && change.doctor !== null) mirror.set(change.id, change.doctor);
      else mirror.delete(change.id);
    }
    expect(byId([...mirror.values()])).toEqual(byId(await searchAll('de')));
  });
});
