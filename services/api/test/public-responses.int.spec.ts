import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_ORIGIN, expectGolden, testDataset } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';

/**
 * Golden public responses: a fixed list of calls over the fixed test dataset, with the harness's fixed
 * cursor secret and site origin, compared with the bodies recorded in fixtures/public-responses.json.
 * It is the referee for refactorings that must not change what clients see (bodies, statuses, content
 * types, cursors: a changed filter fingerprint changes every nextCursor). Record it again, only when a
 * change is meant to be public, with `UPDATE_GOLDEN=1 npx vitest run services/api/test/public-responses`.
 */

const FIXTURE = new URL('./fixtures/public-responses.json', import.meta.url);

type Recorded = {
  request: string;
  status: number;
  contentType: string | null;
  etag: string | null;
  /** Parsed JSON when the body is JSON (checked to re-serialize to the same bytes), else the raw text. */
  body: unknown;
};

const SEARCHES = [
  // every filter alone
  'country=de',
  'country=DE&limit=5',
  'country=es',
  'country=it',
  'country=pt',
  'country=fr',
  'country=mx&limit=3',
  'country=de&city=berlin&limit=100',
  'country=de&city=hamburg',
  'country=de&city=muenchen&limit=100',
  'country=de&city=nowhere',
  'country=de&q=m%C3%BCller',
  'country=de&q=MULLER',
  'country=de&q=praxis%20num&limit=100',
  'country=de&q=%20%20',
  'country=de&q=!!!',
  'country=de&q=zahn',
  'country=de&q=orthop%C3%A4die%20m%C3%BC',
  'country=de&q=%22Praxis%22%20OR%20*',
  'country=es&q=clinica',
  'country=pt&q=s%C3%A3o%20jo',
  'country=de&whatsapp=true&limit=100',
  'country=de&whatsapp=false&limit=100',
  'country=de&verified=true&limit=100',
  'country=de&verified=false&limit=100',
  // combined
  'country=de&city=berlin&whatsapp=true',
  'country=de&city=berlin&whatsapp=true&verified=true&q=praxis&limit=3',
  'country=de&city=muenchen&verified=false&whatsapp=false&q=arztehaus',
  'verified=true&q=m%C3%BCller&country=de&city=hamburg',
  // limits
  'country=de&limit=1',
  'country=de&limit=7',
  'country=de&limit=100',
];

// Paged to the end by following page.nextCursor.
const PAGED = [
  'country=de&limit=10',
  'country=de&limit=25',
  'country=de&city=berlin&whatsapp=true&limit=4',
  'country=de&q=praxis&limit=6',
  'country=de&verified=false&limit=20',
  'country=de&city=muenchen&verified=true&whatsapp=true&q=a&limit=2',
];

// Parameters the search refuses with 400.
const BAD_SEARCHES = [
  '',
  'country=xx',
  'country=',
  'country=de&limit=0',
  'country=de&limit=101',
  'country=de&limit=abc',
  'country=de&limit=1.5',
  'country=de&whatsapp=yes',
  'country=de&verified=1',
  'country=de&city=Berlin',
  'country=de&city=san_sebastian',
  `country=de&q=${'a'.repeat(101)}`,
  'country=de&cursor=',
  `country=de&cursor=${'a'.repeat(2049)}`,
  'country=de&cursor=not-a-cursor',
  'country=de&unknown=1',
  'Country=de',
  'country=de&country=es',
  'country=de&limit=5&limit=6',
  'country=de&api_key=abc',
  'country=de&token=abc',
  'country=de&X-Api-Key=abc',
  'country=de&dk_live_abcdef=1',
  'country=zz&limit=0&whatsapp=maybe&city=UP&extra=1',
  'country[]=de',
];

const PROFILE_PATH = 'de/berlin/praxis-dr-mueller';
const GETS = [
  'de-mueller',
  'es-sanchez',
  'de-crowd-000',
  'de-suppressed',
  'de-closed',
  'de-unpublished',
  'no-such-id',
  'bad%20id',
  'a'.repeat(129),
  encodeURIComponent(`${SITE_ORIGIN}/en/doctors/${PROFILE_PATH}`),
  encodeURIComponent(`${SITE_ORIGIN}/de/aerzte/${PROFILE_PATH}`),
  encodeURIComponent(`${SITE_ORIGIN}/es/medicos/es/madrid/clinica-dental-sanchez`),
  encodeURIComponent(`${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-unterdrueckt`),
  encodeURIComponent(`${SITE_ORIGIN}/de/aerzte/de/berlin/no-such-profile`),
  encodeURIComponent(`https://evil.example/de/aerzte/${PROFILE_PATH}`),
  encodeURIComponent(`${SITE_ORIGIN}/de/doctors/${PROFILE_PATH}`),
  'de-mueller?limit=1',
];

describe('public responses stay byte-identical (golden bodies)', () => {
  let harness: ApiHarness;
  let call: Caller;
  let secret: string;

  beforeAll(async () => {
    harness = await createApiHarness('api-golden');
    call = await createCaller(await harness.newApp());
    ({ secret } = await harness.createKey());
    await harness.index(testDataset().states);
  });
  afterAll(() => harness.close());

  async function record(url: string, headers: Record<string, string> = {}): Promise<Recorded> {
    const response = await call({ url, headers: { 'x-api-key': secret, ...headers } });
    const contentType = response.headers['content-type'];
    const etag = response.headers.etag;
    let body: unknown = response.body;
    if (typeof contentType === 'string' && /json/.test(contentType)) {
      body = response.json();
      // Only then does comparing parsed bodies compare bytes.
      expect(JSON.stringify(body), url).toBe(response.body);
    }
    return {
      request: url,
      status: response.statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      etag: typeof etag === 'string' ? etag : null,
      body,
    };
  }

  const nextCursorOf = (recorded: Recorded): string | null =>
    (recorded.body as { page?: { nextCursor?: string | null } }).page?.nextCursor ?? null;

  async function recordAll(): Promise<Recorded[]> {
    const all: Recorded[] = [];
    for (const query of [...SEARCHES, ...BAD_SEARCHES]) all.push(await record(`/api/v1/doctors?${query}`));

    const firstCursors = new Map<string, string>();
    for (const query of PAGED) {
      let cursor: string | null = null;
      for (let guard = 0; guard < 100; guard += 1) {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page = await record(`/api/v1/doctors?${query}${suffix}`);
        all.push(page);
        cursor = nextCursorOf(page);
        if (!firstCursors.has(query) && cursor !== null) firstCursors.set(query, cursor);
        if (cursor === null) break;
      }
    }

    // A cursor is bound to its filters: equivalent filters accept it, any other value refuses it.
    const cursor = encodeURIComponent(firstCursors.get('country=de&limit=10') ?? 'missing');
    for (const query of [
      'country=de&limit=10',
      'country=DE&limit=3',
      'country=es&limit=10',
      'country=de&city=berlin&limit=10',
      'country=de&q=praxis&limit=10',
      'country=de&whatsapp=true&limit=10',
      'country=de&whatsapp=false&limit=10',
      'country=de&verified=true&limit=10',
      'country=de&verified=false&limit=10',
    ]) {
      all.push(await record(`/api/v1/doctors?${query}&cursor=${cursor}`));
    }
    const qCursor = encodeURIComponent(firstCursors.get('country=de&q=praxis&limit=6') ?? 'missing');
    for (const q of ['praxis', 'PRAXIS', '%20Pr%C3%A4xis%20', 'praxi', 'praxis%20nummer']) {
      all.push(await record(`/api/v1/doctors?country=de&q=${q}&limit=6&cursor=${qCursor}`));
    }
    const combined = firstCursors.get('country=de&city=berlin&whatsapp=true&limit=4') ?? 'missing';
    for (const query of [
      'city=berlin&whatsapp=true&country=de',
      'country=de&city=berlin&whatsapp=true&verified=false',
      'country=de&city=muenchen&whatsapp=true',
      'country=de&city=berlin',
    ]) {
      all.push(await record(`/api/v1/doctors?${query}&limit=4&cursor=${encodeURIComponent(combined)}`));
    }
    // Tampered: one character of the signature and one of the body changed.
    const [body = '', signature = ''] = combined.split('.');
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    for (const tampered of [`${body}.${flip(signature)}`, `${flip(body)}.${signature}`, `${body}.`]) {
      all.push(
        await record(
          `/api/v1/doctors?country=de&city=berlin&whatsapp=true&limit=4&cursor=${encodeURIComponent(tampered)}`,
        ),
      );
    }

    for (const id of GETS) all.push(await record(`/api/v1/doctors/${id}`));
    const found = all.find((entry) => entry.request === '/api/v1/doctors/de-mueller');
    all.push(await record('/api/v1/doctors/de-mueller', { 'if-none-match': found?.etag ?? '"none"' }));
    all.push(await record('/api/v1/doctors/de-mueller', { 'if-none-match': '"other"' }));
    return all;
  }

  it('answers every call exactly as recorded', async () => {
    await expectGolden(FIXTURE, await recordAll(), (entry) => entry.request);
  });
});
