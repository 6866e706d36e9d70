import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectory } from '@directory/search';
import { PAGE_LANGUAGES, toSearchDocument } from '@directory/domain';
import {
  createApiHarness,
  createCaller,
  CURSOR_SECRET,
  type ApiHarness,
  type Caller,
} from './support/api-harness.js';
import { HIDDEN_IDS, SITE_ORIGIN, placeState, testDataset } from '@directory/testing';
import { expectProblem } from './support/problem.js';

const PROFILE_PATH = 'de/berlin/praxis-dr-mueller';
const profileUrl = (lang: keyof typeof PAGE_LANGUAGES, origin = SITE_ORIGIN) =>
  `${origin}/${lang}/${PAGE_LANGUAGES[lang]}/${PROFILE_PATH}`;

// Every form of profile URL that must be refused with 400, never fetched (docs/api.md,
// "GET /api/v1/doctors/{doctorId}").
const REJECTED_PROFILE_URLS = [
  `https://evil.example/en/doctors/${PROFILE_PATH}`,
  `https://www.doctor-directory.example.evil.example/en/doctors/${PROFILE_PATH}`,
  `https://evil-www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `https://wwwdoctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `https://www.doctor-directory.example./en/doctors/${PROFILE_PATH}`,
  `https://www.doctor-directory.example:8443/en/doctors/${PROFILE_PATH}`,
  `https://www.doctor-directory.example@evil.example/en/doctors/${PROFILE_PATH}`,
  `https://user:pass@www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `https://@www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `https://evil.example#@www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `${profileUrl('en')}?`,
  `${profileUrl('en')}?utm=1`,
  `${profileUrl('en')}#`,
  `${profileUrl('en')}#top`,
  `${profileUrl('en')}/`,
  `http://www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `ftp://www.doctor-directory.example/en/doctors/${PROFILE_PATH}`,
  `${SITE_ORIGIN}/en/doctors/de/berlin`,
  `${SITE_ORIGIN}/en/about`,
  `${SITE_ORIGIN}/`,
  SITE_ORIGIN,
  `${SITE_ORIGIN}/en/doctors/de/berlin/../berlin/praxis-dr-mueller`,
  `${SITE_ORIGIN}/en/doctors/./de/berlin/praxis-dr-mueller`,
  `${SITE_ORIGIN}/en/doctors/de/berlin%2Fpraxis-dr-mueller`,
  `${SITE_ORIGIN}/en/doctors/de/berlin/praxis%2Ddr-mueller`,
  `${SITE_ORIGIN}/en/doctors/de/berlin/%2e%2e/praxis-dr-mueller`,
  `${SITE_ORIGIN}/de/doctors/${PROFILE_PATH}`,
  `${SITE_ORIGIN}/EN/doctors/${PROFILE_PATH}`,
  `${SITE_ORIGIN}/en/doctors/DE/berlin/praxis-dr-mueller`,
  `${SITE_ORIGIN}/en/doctors/xx/berlin/praxis-dr-mueller`,
  `${SITE_ORIGIN}/nl/artsen/${PROFILE_PATH}`,
  `${SITE_ORIGIN}//en/doctors/${PROFILE_PATH}`,
  `${SITE_ORIGIN}\\en\\doctors\\de\\berlin\\praxis-dr-mueller`,
  `https://www.doctor-directory.example/en/doctors/de/berlin/praxis dr`,
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,hello',
  'mailto:someone@www.doctor-directory.example',
  `https://${'a'.repeat(2049)}`,
];

describe('GET /api/v1/doctors/{doctorId}', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-get');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    await harness.index(testDataset().states);
  });
  afterAll(() => harness.close());

  const get = (doctorId: string, headers: Record<string, string> = {}) =>
    call({
      url: `/api/v1/doctors/${encodeURIComponent(doctorId)}`,
      headers: { 'x-api-key': secret, ...headers },
    });

  it('returns { doctor } by stable id', async () => {
    const response = await get('de-mueller');
    expect(response.statusCode).toBe(200);
    const body = response.json<{ doctor: { id: string; profileUrl: string; whatsappEligible: boolean } }>();
    expect(Object.keys(body)).toEqual(['doctor']);
    expect(body.doctor.id).toBe('de-mueller');
    expect(body.doctor.profileUrl).toBe(profileUrl('en'));
    expect(body.doctor.whatsappEligible).toBe(true);
  });

  it('resolves the profile URL in every page language to the same record', async () => {
    const byId = (await get('de-mueller')).body;
    for (const lang of Object.keys(PAGE_LANGUAGES) as Array<keyof typeof PAGE_LANGUAGES>) {
      const response = await get(profileUrl(lang));
      expect(response.statusCode, `${lang}: ${response.body}`).toBe(200);
      expect(response.body).toBe(byId);
    }
  });

  it('returns the record byte for byte as search does', async () => {
    const single = (await get('de-mueller')).body;
    const record = single.slice('{"doctor":'.length, -1);
    const search = await call({
      url: '/api/v1/doctors?country=de&q=praxis%20dr%20m',
      headers: { 'x-api-key': secret },
    });
    expect(search.body).toContain(record);
  });

  it('rejects every non-canonical or foreign profile URL with 400 naming doctorId', async () => {
    for (const url of REJECTED_PROFILE_URLS) {
      const problem = expectProblem(await get(url), 400);
      expect(
        problem.errors.map((error) => error.parameter),
        url,
      ).toEqual(['doctorId']);
    }
  });

  it('rejects ids that are neither a place id nor a URL, and ids over 2048 characters', async () => {
    for (const id of ['a b', 'ärzte', 'x'.repeat(129), 'de-mueller;drop', 'a.b', 'x'.repeat(2049)]) {
      expectProblem(await get(id), 400);
    }
  });

  it('answers 404 for unknown ids and for suppressed, closed or unpublished places (tombstones)', async () => {
    expectProblem(await get('no-such-place'), 404);
    for (const id of HIDDEN_IDS) expectProblem(await get(id), 404);
    for (const slug of ['praxis-unterdrueckt', 'praxis-geschlossen', 'praxis-zurueck', 'nobody']) {
      expectProblem(await get(`${SITE_ORIGIN}/de/aerzte/de/berlin/${slug}`), 404);
    }
  });

  it('sends an ETag and answers If-None-Match with 304', async () => {
    const first = await get('de-mueller');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get('de-mueller', { 'if-none-match': header });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['ratelimit-limit']).toBeDefined();
    }
    expect((await get('de-mueller', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    expect((await get('de-schmidt')).headers.etag).not.toBe(etag);
  });

  it('can only ever write allowlisted fields, even if a stray field reached the index', async () => {
    const state = placeState({ id: 'de-stray', name: 'Praxis Stray', profileSlug: 'praxis-stray' });
    const document = toSearchDocument(state, { siteOrigin: SITE_ORIGIN });
    if (!document.served) throw new Error('expected a served document');
    // Bypass the projection: the stored record gains internal fields.
    const polluted = { ...document, doctor: { ...document.doctor, crawlId: 'internal-1', sourceUrl: 'x' } };
    await harness.search.client.index({
      index: harness.alias,
      id: 'de-stray',
      document: polluted,
      refresh: true,
    });
    const single = await get('de-stray');
    expect(single.statusCode).toBe(200);
    expect(single.body).not.toMatch(/crawlId|sourceUrl/);
    const found = await call({ url: '/api/v1/doctors?country=de&q=stray', headers: { 'x-api-key': secret } });
    expect(found.json<{ doctors: unknown[] }>().doctors).toHaveLength(1);
    expect(found.body).not.toMatch(/crawlId|sourceUrl/);
  });

  it('rejects query parameters on the single-record route (other than fields and lang)', async () => {
    const response = await call({
      url: '/api/v1/doctors/de-mueller?format=json',
      headers: { 'x-api-key': secret },
    });
    expect(expectProblem(response, 400).errors.map((error) => error.parameter)).toEqual(['format']);
  });

  describe('parse, never fetch', () => {
    let server: Server;
    let connections = 0;
    let origin = '';
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      origin = `http://127.0.0.1:${address.port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('makes no connection to the host of a profile URL, accepted or rejected', async () => {
      // A directory whose own site is the counting server: valid profile URLs point right at it.
      const directory = createDirectory({
        client: harness.search.client,
        alias: harness.alias,
        siteOrigin: origin,
        cursorSecret: CURSOR_SECRET,
      });
      for (const lang of Object.keys(PAGE_LANGUAGES) as Array<keyof typeof PAGE_LANGUAGES>) {
        expect((await directory.getDoctor(profileUrl(lang, origin))).status).toBe('found');
      }
      expect((await directory.getDoctor(`${origin}/en/about`)).status).toBe('invalid');
      expect((await directory.getDoctor(`${profileUrl('en', origin)}?x`)).status).toBe('invalid');
      // Through the API, where the counting server is a foreign host.
      expectProblem(await get(profileUrl('en', origin)), 400);
      expectProblem(await get(`${origin}/`), 400);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connections).toBe(0);
    });
  });
});
