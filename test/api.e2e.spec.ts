import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedApiKey, type DoctorPage } from '@directory/domain';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  REPOSITORY_ROOT,
  nodeArguments,
  indexPlaces,
  placeState,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  startProcess,
  type RunningProcess,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
  freePort,
} from '@directory/testing';
import { fetchedResponse, openApiValidatorFor } from '../services/api/test/support/openapi-validator.js';

const run = promisify(execFile);

// Two API processes and the operator CLI, started as a user would: keys, limits and revocation are
// shared through PostgreSQL and Redis, never through process memory.
describe('npm run api, two processes, npm run keys', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let search: TestSearch;
  const apis: RunningProcess[] = [];
  const bases: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase('api-e2e');
    redis = createTestRedis('api-e2e');
    search = createTestSearch('api-e2e');
    const alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias);
    env = {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: alias,
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '5',
      RATE_LIMIT_WINDOW_S: '60',
      LOG_LEVEL: 'info',
    };
    for (let index = 0; index < 2; index += 1) {
      const port = await freePort();
      const api = startProcess('services/api/src/server.ts', [], { ...env, API_PORT: String(port) });
      apis.push(api);
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(apis.map((api) => api.waitForOutput(/Server listening/)));
  });

  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop('SIGKILL')));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  const keys = (...args: string[]) =>
    run(process.execPath, nodeArguments('packages/keys/src/keys.cli.ts', args), {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
    });
  const getKey = (base: string, secret: string) =>
    fetch(`${base}/api/v1/key`, { headers: { authorization: `Bearer ${secret}` } });

  it('serves the key created with the CLI, shares one quota, and honours a CLI revocation at once', async () => {
    const created = await keys('create', '--account', 'e2e@example.com', '--name', 'e2e');
    const secret = created.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(isWellFormedApiKey(secret)).toBe(true);
    const [first = '', second = ''] = bases;

    const statuses: number[] = [];
    for (const base of [first, second, first, second, first, second]) {
      const response = await getKey(base, secret);
      statuses.push(response.status);
      if (response.status === 200) expect(response.headers.get('ratelimit-policy')).toBe('"key";q=5;w=60');
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    const { stdout } = await keys('list', '--account', 'e2e@example.com');
    const id = stdout.trimEnd().split('\n')[1]?.split('\t')[0] ?? '';
    await keys('revoke', id);
    for (const base of [first, second]) {
      const response = await getKey(base, secret);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }

    const unauthenticated = await fetch(`${first}/openapi.json`);
    expect((await unauthenticated.json()) as { info: { version: string } }).toMatchObject({
      info: { version: '1.5.0' },
    });
    for (const api of apis) expect(api.output()).not.toContain(secret);
  });

  it('answers geo searches, the cities and specialties lists (API 1.2), the typeahead and relevance, viewport and counted searches (API 1.3), every response as /openapi.json describes it', async () => {
    await indexPlaces(search.client, `${search.prefix}_doctors`, [
      placeState({
        id: 'pt-centre',
        name: 'Clínica Centro',
        country: 'pt',
        city: 'Lisboa',
        citySlug: 'lisboa',
        location: { latitude: 38.7223, longitude: -9.1393 },
      }),
      placeState({
        id: 'pt-north',
        name: 'Clínica Norte',
        country: 'pt',
        city: 'Lisboa',
        citySlug: 'lisboa',
        location: { latitude: 38.7313, longitude: -9.1393 },
      }),
      placeState({
        id: 'pt-porto',
        name: 'Clínica Porto',
        country: 'pt',
        city: 'Porto',
        citySlug: 'porto',
        location: { latitude: 41.1579, longitude: -8.6291 },
        primaryType: 'Dentista',
        specialties: ['Ortodontia'],
      }),
    ]);
    const [base = ''] = bases;
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as Parameters<
      typeof openApiValidatorFor
    >[0];
    const validator = openApiValidatorFor(document);
    const account = await ensureAccount(database.db, 'e2e-geo@example.com');
    // The per-key limit here is 5 requests a minute: a key per few requests.
    const secrets = await Promise.all(
      ['geo-1', 'geo-2', 'geo-3', 'geo-4'].map(
        async (name) => (await createApiKey(database.db, { accountId: account.id, name })).secret,
      ),
    );
    let used = 0;
    const get = async (path: string, query: string) => {
      const secret = secrets[Math.floor(used / 5)] ?? '';
      used += 1;
      const response = await fetchedResponse(
        await fetch(`${base}${path}?${query}`, { headers: { 'x-api-key': secret } }),
      );
      validator.check(path, 'GET', response);
      return response;
    };

    const first = await get('/api/v1/doctors', 'country=pt&near=38.7223,-9.1393&radius=5000&limit=1');
    expect(first.statusCode).toBe(200);
    const firstPage = first.json() as DoctorPage;
    expect(firstPage.doctors.map((doctor) => [doctor.id, doctor.distanceMeters])).toEqual([['pt-centre', 0]]);
    const cursor = encodeURIComponent(firstPage.page.nextCursor ?? '');
    const second = await get(
      '/api/v1/doctors',
      `country=pt&near=38.7223,-9.1393&radius=5000&limit=1&cursor=${cursor}`,
    );
    expect((second.json() as DoctorPage).doctors.map((doctor) => [doctor.id, doctor.distanceMeters])).toEqual(
      [['pt-north', 1001]],
    );
    expect((second.json() as DoctorPage).page).toEqual({ count: 1, hasMore: false, nextCursor: null });
    const bad = await get('/api/v1/doctors', 'country=pt&near=38.7,-200');
    expect(bad.statusCode).toBe(400);
    const plain = await get('/api/v1/doctors', 'country=pt');
    expect(plain.body).not.toContain('distanceMeters');

    const cities = await get('/api/v1/cities', 'country=pt');
    expect(cities.json()).toEqual({
      cities: [
        { slug: 'lisboa', name: 'Lisboa', count: 2 },
        { slug: 'porto', name: 'Porto', count: 1 },
      ],
    });
    expect((await get('/api/v1/cities', 'country=pt&q=PORT')).json()).toEqual({
      cities: [{ slug: 'porto', name: 'Porto', count: 1 }],
    });
    expect((await get('/api/v1/cities', 'country=pt&limit=501')).statusCode).toBe(400);

    expect((await get('/api/v1/specialties', 'country=pt&lang=pt')).json()).toEqual({
      specialties: [
        { code: 'dentistry', label: 'Medicina dentária', count: 1 },
        { code: 'orthodontics', label: 'Ortodontia', count: 1 },
      ],
    });
    const dentists = await get('/api/v1/doctors', 'country=pt&specialty=dentistry');
    expect((dentists.json() as DoctorPage).doctors.map((doctor) => doctor.id)).toEqual(['pt-porto']);

    const porto = { type: 'doctor', id: 'pt-porto', name: 'Clínica Porto', city: 'Porto' };
    expect((await get('/api/v1/suggest', 'country=pt&q=PORT')).json()).toEqual({
      suggestions: [{ type: 'city', citySlug: 'porto', name: 'Porto' }, porto],
    });
    expect((await get('/api/v1/suggest', 'country=pt&q=orto&lang=pt')).json()).toEqual({
      suggestions: [{ type: 'specialty', code: 'orthodontics', label: 'Ortodontia' }, porto],
    });

    // API 1.3 search: a typo and a specialty named in another language, counted; a viewport by name.
    const ranked = await get('/api/v1/doctors', 'country=pt&q=dentist%20prto&sort=relevance&count=true');
    expect(ranked.json()).toMatchObject({
      doctors: [{ id: 'pt-porto' }],
      page: { count: 1, hasMore: false, nextCursor: null, total: 1, totalExact: true },
    });
    const viewport = await get(
      '/api/v1/doctors',
      'country=pt&bbox=-9.2,38.7,-9.1,38.8&sort=distance&near=38.7313,-9.1393&limit=1',
    );
    const viewportPage = viewport.json() as DoctorPage;
    expect(viewportPage.doctors.map((doctor) => [doctor.id, doctor.distanceMeters])).toEqual([
      ['pt-north', 0],
    ]);
    expect(viewportPage.page.hasMore).toBe(true);
  });

  it('answers If-None-Match with a bare 304 over HTTP, in either process, without spending quota', async () => {
    const account = await ensureAccount(database.db, 'e2e-caching@example.com');
    const { secret } = await createApiKey(database.db, { accountId: account.id, name: 'caching' });
    const [first = '', second = ''] = bases;
    const url = '/api/v1/doctors?country=pt&limit=2';
    const full = await fetch(`${first}${url}`, { headers: { 'x-api-key': secret } });
    expect(full.status).toBe(200);
    const etag = full.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(full.headers.get('ratelimit-remaining')).toBe('4');
    // The quota is 5 a minute: six conditional requests all come back 304, from both processes.
    for (const base of [first, second, first, second, first, second]) {
      const response = await fetch(`${base}${url}`, {
        headers: { 'x-api-key': secret, 'if-none-match': etag },
      });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      expect(response.headers.get('vary')).toBe('X-API-Key, Authorization');
      expect(response.headers.get('ratelimit-remaining')).toBe('4');
    }
  });

  it('closes gracefully on SIGTERM', async () => {
    const [api] = apis;
    if (api === undefined) throw new Error('no api');
    expect(await api.stop('SIGTERM')).toBe(0);
    expect(api.output()).toMatch(/"msg":"closing"/);
  });
});
