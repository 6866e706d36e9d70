import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceState } from '@directory/domain';
import { recordFeedClock } from '@directory/event-store';
import { placeState, storeServedPlaces } from '@directory/testing';
import { fhirValidator } from '../../../packages/fhir/test/support/fhir-validator.js';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';

/**
 * FHIR Bulk Data $export over the real store, Redis and index: kick-off, status manifest, NDJSON files
 * whose every line is what read returns, _type and _since, the Prefer and parameter errors, jobs that
 * belong to their account, DELETE, the jobs' per-account bound, and the mirror: the files plus the
 * history from the manifest's transactionTime equal what is served.
 */

type Manifest = {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: Array<{ type: string; url: string; count: number }>;
  error: unknown[];
};
type Resource = { resourceType: string; id: string; name?: string; meta: { versionId: string } };
type Outcome = { resourceType: 'OperationOutcome'; issue: Array<{ diagnostics?: string }> };
type HistoryBundle = {
  link: Array<{ relation: string; url: string }>;
  entry?: Array<{ resource?: Resource; request: { method: 'PUT' | 'DELETE'; url: string } }>;
};

const PT = encodeURIComponent('Organization?address-country=PT');

describe('/fhir/R4/$export', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let secret: string;
  let otherSecret: string;
  let sandboxSecret: string;

  const states: PlaceState[] = [
    placeState({ id: 'bulk-a', name: 'Clínica A', country: 'pt', updatedAt: '2026-09-01T00:00:00.000Z' }),
    placeState({ id: 'bulk-b', name: 'Clínica B', country: 'pt', updatedAt: '2026-10-01T00:00:00.000Z' }),
    placeState({ id: 'bulk-c', name: 'Clínica C', country: 'pt', updatedAt: '2026-11-01T00:00:00.000Z' }),
    placeState({ id: 'bulk-x', name: 'Suppressed', country: 'pt', suppressed: true }),
    placeState({ id: 'bulk-es', name: 'Clínica ES', country: 'es' }),
  ];

  beforeAll(async () => {
    harness = await createApiHarness('api-fhir-bulk');
    app = await harness.newApp();
    ({ secret } = await harness.createKey('bulk@example.com'));
    ({ secret: otherSecret } = await harness.createKey('other@example.com'));
    ({ secret: sandboxSecret } = await harness.createKey('bulk@example.com', 'sandbox', 'test'));
    await store(states);
  });
  afterAll(() => harness.close());

  const store = (places: PlaceState[]) =>
    storeServedPlaces(
      { db: harness.database.db, client: harness.search.client, alias: harness.alias },
      places,
    );
  const request = (
    method: 'GET' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    key = secret,
  ) => app.inject({ method, url, headers: { 'x-api-key': key, ...headers } });
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  /** Kicks an export off; answers its status URL (a path under the app). */
  async function kickOff(query: string): Promise<string> {
    const response = await request('GET', `/fhir/R4/$export?${query}`, {
      prefer: 'respond-async',
      accept: 'application/fhir+json',
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json<Outcome>().resourceType).toBe('OperationOutcome');
    const location = String(response.headers['content-location']);
    expect(location).toMatch(/^http:\/\/localhost(:\d+)?\/fhir\/R4\/\$export-status\/[0-9a-f-]{36}$/);
    return pathOf(location);
  }
  async function manifestAt(status: string): Promise<Manifest> {
    const response = await request('GET', status);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.expires).toBeDefined();
    return response.json<Manifest>();
  }
  async function linesOf(url: string): Promise<Resource[]> {
    const response = await request('GET', pathOf(url), { accept: 'application/fhir+ndjson' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+ndjson/);
    expect(response.body.endsWith('\n')).toBe(true);
    return response.body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Resource);
  }
  const remove = async (status: string) => expect((await request('DELETE', status)).statusCode).toBe(202);

  it('kicks off, answers the manifest, and serves each type as NDJSON equal to read', async () => {
    const status = await kickOff(`_typeFilter=${PT}&_outputFormat=application%2Ffhir%2Bndjson`);
    const manifest = await manifestAt(status);
    expect(manifest).toMatchObject({ requiresAccessToken: true, error: [] });
    expect(manifest.request).toContain('/fhir/R4/$export?_typeFilter=');
    expect(Date.parse(manifest.transactionTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(manifest.output.map((file) => [file.type, file.count])).toEqual([
      ['Organization', 3],
      ['Location', 3],
      ['HealthcareService', 3],
    ]);
    const validate = await fhirValidator();
    for (const file of manifest.output) {
      const resources = await linesOf(file.url);
      expect(resources.map((resource) => resource.id)).toEqual(['bulk-a', 'bulk-b', 'bulk-c']);
      for (const resource of resources) {
        expect(resource.resourceType).toBe(file.type);
        const read = await request('GET', `/fhir/R4/${file.type}/${resource.id}`);
        expect(resource).toEqual(read.json());
        expect(validate(resource).errors).toEqual([]);
      }
    }
    // gzip when asked, the same lines; HEAD answers the headers alone.
    const file = pathOf(manifest.output[0]?.url ?? '');
    const zipped = await app.inject({
      method: 'GET',
      url: file,
      headers: { 'x-api-key': secret, 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe((await request('GET', file)).body);
    const head = await app.inject({ method: 'HEAD', url: file, headers: { 'x-api-key': secret } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/fhir\+ndjson/);
    expect(head.body).toBe('');
    await remove(status);
  });

  it('exports only the types of _type, and with _since only what was updated at or after it', async () => {
    const filter = encodeURIComponent('Location?address-country=pt');
    const status = await kickOff(`_type=Location&_typeFilter=${filter}&_since=2026-10-01T00:00:00Z`);
    const manifest = await manifestAt(status);
    expect(manifest.output.map((file) => [file.type, file.count])).toEqual([['Location', 2]]);
    const resources = await linesOf(manifest.output[0]?.url ?? '');
    expect(resources.map((resource) => resource.id)).toEqual(['bulk-b', 'bulk-c']);
    // A type the job did not export has no file.
    const other = manifest.output[0]?.url.replace('Location.ndjson', 'Organization.ndjson') ?? '';
    expect((await request('GET', pathOf(other))).statusCode).toBe(404);
    await remove(status);
  });

  it('the files and the history from transactionTime together are what is served now', async () => {
    await recordFeedClock(harness.database.db);
    const status = await kickOff(`_type=Organization&_typeFilter=${PT}`);
    const manifest = await manifestAt(status);
    // Written after the snapshot: a change, a removal and a new record.
    await store([
      placeState({ id: 'bulk-a', name: 'Clínica A (nova)', country: 'pt', version: 2 }),
      placeState({ id: 'bulk-b', name: 'Clínica B', country: 'pt', suppressed: true, version: 2 }),
      placeState({ id: 'bulk-d', name: 'Clínica D', country: 'pt' }),
    ]);
    await recordFeedClock(harness.database.db);
    const mirror = new Map<string, Resource>();
    for (const resource of await linesOf(manifest.output[0]?.url ?? '')) mirror.set(resource.id, resource);
    let url: string | undefined =
      `/fhir/R4/Organization/_history?address-country=pt&_count=2&_since=${encodeURIComponent(manifest.transactionTime)}`;
    for (let guard = 0; url !== undefined && guard < 20; guard += 1) {
      const page: HistoryBundle = (await request('GET', url)).json<HistoryBundle>();
      for (const entry of page.entry ?? []) {
        const id = entry.request.url.split('/')[1] ?? '';
        if (entry.request.method === 'DELETE') mirror.delete(id);
        else if (entry.resource !== undefined) mirror.set(id, entry.resource);
      }
      const next = page.link.find((link) => link.relation === 'next')?.url;
      url = next === undefined ? undefined : pathOf(next);
    }
    const served = await request('GET', '/fhir/R4/Organization?address-country=pt&_count=100');
    const current = (served.json<{ entry?: Array<{ resource: Resource }> }>().entry ?? []).map(
      (entry) => entry.resource,
    );
    expect([...mirror.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      current.sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(mirror.get('bulk-a')?.name).toBe('Clínica A (nova)');
    expect(mirror.has('bulk-b')).toBe(false);
    expect(mirror.has('bulk-d')).toBe(true);
    await remove(status);
    // Back to the first state for the other tests.
    await store([states[0]!, states[1]!].map((state) => ({ ...state, version: 3 })));
  });

  it('refuses a kick-off without Prefer: respond-async, or with parameters it does not serve', async () => {
    const refused = async (query: string, headers: Record<string, string> = { prefer: 'respond-async' }) => {
      const response = await request('GET', `/fhir/R4/$export?${query}`, headers);
      expect(response.statusCode, query).toBe(400);
      const outcome = response.json<Outcome>();
      expect(outcome.resourceType).toBe('OperationOutcome');
      return outcome.issue.slice(1).map((issue) => issue.diagnostics?.split(':')[0]);
    };
    expect(await refused(`_typeFilter=${PT}`, {})).toEqual(['Prefer']);
    expect(await refused(`_typeFilter=${PT}&_outputFormat=text%2Fcsv`)).toEqual(['_outputFormat']);
    expect(await refused(`_typeFilter=${PT}&_type=Patient`)).toEqual(['_type']);
    expect(await refused(`_typeFilter=${encodeURIComponent('Organization?name=x')}`)).toEqual([
      '_typeFilter',
    ]);
    expect(await refused('_type=Location')).toEqual(['_typeFilter']);
    expect(await refused(`_typeFilter=${PT},${encodeURIComponent('Location?address-country=ES')}`)).toEqual([
      '_typeFilter',
    ]);
    expect(await refused(`_typeFilter=${PT}&_since=2026-10-01`)).toEqual(['_since']);
    // A filter of a type the export leaves out.
    expect(await refused(`_typeFilter=${PT}&_type=Location`)).toEqual(['_typeFilter']);
  });

  it('a job is its account’s: other keys get 404; DELETE ends it; an account holds two at once', async () => {
    const status = await kickOff(`_typeFilter=${PT}`);
    const manifest = await manifestAt(status);
    const file = pathOf(manifest.output[0]?.url ?? '');
    for (const key of [otherSecret, sandboxSecret]) {
      expect((await request('GET', status, {}, key)).statusCode).toBe(404);
      expect((await request('GET', file, {}, key)).statusCode).toBe(404);
      expect((await request('DELETE', status, {}, key)).statusCode).toBe(404);
    }
    expect((await app.inject({ method: 'GET', url: status })).statusCode).toBe(401);

    const second = await kickOff(`_typeFilter=${PT}`);
    const third = await request('GET', `/fhir/R4/$export?_typeFilter=${PT}`, { prefer: 'respond-async' });
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);

    await remove(status);
    expect((await request('GET', status)).statusCode).toBe(404);
    expect((await request('GET', file)).statusCode).toBe(404);
    expect((await request('DELETE', status)).statusCode).toBe(404);
    // Its slot is free again.
    await remove(await kickOff(`_typeFilter=${PT}`));
    await remove(second);
  });
});
