import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { PlaceState } from '@directory/domain';
import { placeState, storeServedPlaces } from '@directory/testing';
import { createApiHarness, type ApiHarness } from '../../../services/api/test/support/api-harness.js';
import { createDirectoryClient, DirectoryApiError, type Doctor, type MirrorStore } from '../src/index.js';

// The client against the real API: the app the API process runs, listening on a loopback port, over the
// real PostgreSQL, Redis and Elasticsearch (its own database, prefix and index).

const COUNT = 23;
const places = Array.from({ length: COUNT }, (_, index) =>
  placeState({
    id: `client-${String(index).padStart(2, '0')}`,
    name: `Praxis ${String.fromCharCode(65 + (index % 26))}${index}`,
    country: 'de',
  }),
);

type Exchange = {
  url: string;
  ifNoneMatch: string | undefined;
  status: number;
  retryAfter: string | null;
  at: number;
};

/** A fetch that records each exchange (what was sent, what came back) before handing the answer on. */
function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    exchanges.push({
      url: input instanceof Request ? input.url : input.toString(),
      ifNoneMatch: headers['if-none-match'],
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      at: Date.now(),
    });
    return response;
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describe('@directory/client against the API', () => {
  let harness: ApiHarness;
  let baseUrl: string;
  let secret: string;

  const store = (states: PlaceState[]) =>
    storeServedPlaces(
      { db: harness.database.db, client: harness.search.client, alias: harness.alias },
      states,
    );

  beforeAll(async () => {
    harness = await createApiHarness('client');
    baseUrl = await listen(await harness.newApp());
    ({ secret } = await harness.createKey());
    await store(places);
  });
  afterAll(() => harness.close());

  const client = (extra: Partial<Parameters<typeof createDirectoryClient>[0]> = {}) =>
    createDirectoryClient({ baseUrl, apiKey: secret, ...extra });

  it('validates its key', async () => {
    const key = await client().key();
    expect(key.prefix).toBe(secret.slice(0, 12));
  });

  it('pages through a search with the iterator: every record once, in the order of one large page', async () => {
    const exchanges: Exchange[] = [];
    const seen: string[] = [];
    for await (const doctor of client({ fetch: recordingFetch(exchanges) }).searchAll({
      country: 'de',
      limit: 5,
    })) {
      seen.push(doctor.id);
    }
    const whole = await client().searchDoctors({ country: 'de', limit: 100 });
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen).size).toBe(COUNT);
    expect(seen).toEqual(whole.doctors.map((doctor) => doctor.id));
    expect(exchanges).toHaveLength(Math.ceil(COUNT / 5));

    const pages = [];
    for await (const page of client().searchPages({ country: 'de', limit: 10, fields: ['name'] }))
      pages.push(page);
    expect(pages.map((page) => page.page.count)).toEqual([10, 10, 3]);
    expect(Object.keys(pages[0]?.doctors[0] ?? {})).toEqual(['id', 'name']);
  });

  it('gets one record, shaped by fields and lang', async () => {
    const [first] = (await client().searchDoctors({ country: 'de', limit: 1 })).doctors;
    const doctor = await client().getDoctor(first?.id ?? '');
    expect(doctor).toEqual(first);
    const shaped = await client().getDoctor(first?.id ?? '', { fields: ['name', 'profileUrl'], lang: 'es' });
    expect(Object.keys(shaped)).toEqual(['id', 'name', 'profileUrl']);
    expect(shaped.profileUrl).toContain('/es/');
  });

  it('gets a batch, split into requests the API accepts when it is larger than one', async () => {
    const exchanges: Exchange[] = [];
    const unknown = Array.from({ length: 130 }, (_, index) => `unknown-${index}`);
    const ids = [places[3]?.placeId ?? '', ...unknown, places[1]?.placeId ?? '', places[3]?.placeId ?? ''];
    const batch = await client({ fetch: recordingFetch(exchanges) }).getDoctors(ids);
    expect(exchanges).toHaveLength(2);
    expect(batch.doctors.map((doctor) => doctor.id)).toEqual([places[3]?.placeId, places[1]?.placeId]);
    expect(batch.missing).toEqual(unknown);
  });

  it('revalidates: the second call sends If-None-Match, gets 304 and answers with the kept body', async () => {
    const exchanges: Exchange[] = [];
    const revalidating = client({ fetch: recordingFetch(exchanges) });
    const first = await revalidating.searchDoctors({ country: 'de', city: 'berlin', limit: 7 });
    const second = await revalidating.searchDoctors({ country: 'de', city: 'berlin', limit: 7 });
    expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 304]);
    expect(exchanges[0]?.ifNoneMatch).toBeUndefined();
    expect(exchanges[1]?.ifNoneMatch).toMatch(/^"[^"]+"$/);
    expect(second).toEqual(first);
  });

  it('waits out Retry-After on 429 and then gets its answer', async () => {
    const limited = await listen(await harness.newApp({ rateLimit: { max: 2, windowSeconds: 2 } }));
    const { secret: tinyQuota } = await harness.createKey('tiny@example.com', 'tiny quota');
    const exchanges: Exchange[] = [];
    const patient = createDirectoryClient({
      baseUrl: limited,
      apiKey: tinyQuota,
      fetch: recordingFetch(exchanges),
      etagCache: false,
    });
    for (let call = 0; call < 3; call += 1) await patient.key();
    const statuses = exchanges.map((exchange) => exchange.status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 429]);
    expect(statuses.at(-1)).toBe(200);
    const refused = exchanges[2];
    const retried = exchanges[3];
    expect(refused?.retryAfter).toMatch(/^\d+$/);
    // The retry was sent no earlier than Retry-After said (whole seconds, never earlier than the window's end).
    expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(
      Number(refused?.retryAfter) * 1000 - 5,
    );
  });

  it('throws a typed error on 400 naming the parameter, without retrying or showing the key', async () => {
    const exchanges: Exchange[] = [];
    const error = await client({ fetch: recordingFetch(exchanges) })
      .searchDoctors({ country: 'de', limit: 1000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DirectoryApiError);
    const problem = error as DirectoryApiError;
    expect(problem).toMatchObject({ status: 400, type: '/problems/invalid-parameter' });
    expect(problem.errors.map((entry) => entry.parameter)).toEqual(['limit']);
    expect(problem.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(problem.message).toContain('limit');
    expect(problem.message).not.toContain(secret);
    expect(exchanges).toHaveLength(1);
  });

  it('keeps a mirror from the changes feed equal to paging the search, and resumes from the saved cursor', async () => {
    const mirror = new Map<string, Doctor>();
    const saved: string[] = [];
    const mirrorStore: MirrorStore = {
      upsert: (record) => void mirror.set(record.id, record),
      remove: (id) => void mirror.delete(id),
      saveCursor: (cursor) => void saved.push(cursor),
    };
    const searched = async () => {
      const records = new Map<string, Doctor>();
      for await (const doctor of client().searchAll({ country: 'de', limit: 100 }))
        records.set(doctor.id, doctor);
      return records;
    };

    const first = await client().syncMirror({ country: 'de', store: mirrorStore, limit: 7 });
    expect(first).toMatchObject({ upserts: COUNT, removals: 0, pages: Math.ceil(COUNT / 7) });
    expect(saved.at(-1)).toBe(first.cursor);
    expect(mirror).toEqual(await searched());

    const renamed = placeState({ id: 'client-04', name: 'Praxis Umbenannt', country: 'de', version: 2 });
    const gone = placeState({
      id: 'client-05',
      name: 'Praxis F5',
      country: 'de',
      suppressed: true,
      version: 2,
    });
    const added = placeState({ id: 'client-new', name: 'Praxis Neu', country: 'de' });
    await store([renamed, gone, added]);

    const next = await client().syncMirror({ country: 'de', store: mirrorStore, cursor: first.cursor });
    expect(next).toMatchObject({ upserts: 2, removals: 1 });
    expect(mirror.get('client-04')?.name).toBe('Praxis Umbenannt');
    expect(mirror.has('client-05')).toBe(false);
    expect(mirror).toEqual(await searched());

    // Nothing new: the cursor stays put and nothing is applied.
    const idle = await client().syncMirror({ country: 'de', store: mirrorStore, cursor: next.cursor });
    expect(idle).toEqual({ cursor: next.cursor, upserts: 0, removals: 0, pages: 1 });
  });

  it('lists cities and specialties and suggests', async () => {
    const cities = await client().cities({ country: 'de' });
    expect(cities.map((city) => city.slug)).toContain('berlin');
    expect((await client().specialties({ lang: 'de' })).length).toBeGreaterThan(0);
    const suggestions = await client().suggest({ country: 'de', q: 'Praxis Umbenann', limit: 5 });
    expect(suggestions).toContainEqual(expect.objectContaining({ type: 'doctor', id: 'client-04' }));
  });
});
