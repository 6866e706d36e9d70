import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import { testDataset } from '@directory/testing';
import { POSTMAN_SCHEMA } from '../src/plugins/postman-collection.js';
import { SUCCESS_EXAMPLES } from '../src/routes/response-examples.js';
import { createApiHarness, createCaller, type ApiHarness, type Caller } from './support/api-harness.js';

/** `GET /postman.json`: the OpenAPI document as a Postman collection (v2.1), served without a key. */

// Postman's own collection library (untyped: its published types are of an older major), to read the
// collection as Postman does.
const { Collection } = createRequire(import.meta.url)('postman-collection') as {
  Collection: new (json: unknown) => {
    forEachItem: (visit: () => void) => void;
    toJSON: () => { info?: { schema?: string } };
  };
};

type QueryParameter = { key: string; value: string; disabled?: boolean };
type Request = {
  method: string;
  url: { host: string[]; path: string[]; query?: QueryParameter[]; variable?: QueryParameter[] };
  auth?: unknown;
};
type Example = { code: number; body?: string; originalRequest: Request };
type Item = { name: string; item?: Item[]; request?: Request; response?: Example[] };
type PostmanCollection = {
  info: { name: string; schema: string; version?: string; _postman_id?: string };
  item: Item[];
  auth: { type: string; apikey: Array<{ key: string; value: string }> };
  variable: Array<{ key: string; value: string }>;
};
type Operation = { summary: string };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

describe('Postman collection', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let call: Caller;
  let secret: string;
  let collection: PostmanCollection;
  let requests: Item[];
  let firstMs: number;

  beforeAll(async () => {
    harness = await createApiHarness('api-postman');
    app = await harness.newApp();
    call = await createCaller(app);
    ({ secret } = await harness.createKey());
    await harness.index(testDataset().states);
    const started = performance.now();
    const response = await app.inject({ url: '/postman.json' });
    firstMs = performance.now() - started;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    collection = response.json<PostmanCollection>();
    requests = leaves(collection.item);
  });
  afterAll(() => harness.close());

  it('is a v2.1 collection with the required fields, that Postman’s own library reads', () => {
    expect(collection.info).toMatchObject({
      name: 'Doctor directory API',
      schema: POSTMAN_SCHEMA,
      version: '1.5.0',
    });
    for (const request of requests) {
      expect(request.request?.method, request.name).toBe('GET');
      expect(request.request?.url.host, request.name).toEqual(['{{baseUrl}}']);
    }
    const parsed = new Collection(collection);
    let count = 0;
    parsed.forEachItem(() => (count += 1));
    expect(count).toBe(requests.length);
    expect(parsed.toJSON().info?.schema).toBe(POSTMAN_SCHEMA);
  });

  it('has one request per operation of /openapi.json, named by its summary', async () => {
    const document = (await app.inject({ url: '/openapi.json' })).json<OpenApi>();
    const summaries = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.summary),
    );
    expect(requests.map((request) => request.name).sort()).toEqual(summaries.sort());
    expect(requests).toHaveLength(11);
    expect(collection.item.map((folder) => folder.name)).toEqual([
      'key',
      'doctors',
      'changes',
      'exports',
      'cities',
      'specialties',
      'suggest',
      'facets',
      'datasets',
    ]);
  });

  it('carries the document’s examples: each request’s 200 is the documented answer', () => {
    for (const request of requests) {
      const path = `/${request.request?.url.path.join('/') ?? ''}`.replace(/\/:(\w+)/g, '/{$1}');
      const ok = request.response?.find((example) => example.code === 200);
      expect(ok?.body, path).toBeDefined();
      expect(JSON.parse(ok?.body ?? 'null'), path).toEqual(SUCCESS_EXAMPLES[path]);
      expect(
        request.response?.some((example) => example.code === 400),
        path,
      ).toBe(true);
    }
  });

  it('sends the key from a collection variable as X-API-Key, against a baseUrl variable', () => {
    expect(collection.auth.type).toBe('apikey');
    expect(Object.fromEntries(collection.auth.apikey.map(({ key, value }) => [key, value]))).toEqual({
      key: 'X-API-Key',
      value: '{{apiKey}}',
      in: 'header',
    });
    // Every request inherits it (null: no auth of its own).
    for (const request of requests) expect(request.request?.auth ?? null, request.name).toBeNull();
    expect(Object.fromEntries(collection.variable.map(({ key, value }) => [key, value]))).toEqual({
      // The origin it was fetched from (inject's default host).
      baseUrl: 'http://localhost:80',
      apiKey: '',
    });
  });

  it('leaves out the deprecated ids of search, and its requests work as they are', async () => {
    const search = requestNamed('Search published doctors and clinics');
    expect(search.url.query?.map((parameter) => parameter.key)).not.toContain('ids');
    const batch = requestNamed('Fetch up to 100 published records by id or profile URL');
    expect(batch.url.path).toEqual(['api', 'v1', 'doctors:batchGet']);
    // Well-formed as they are: the example doctor id of single get is not in the test dataset (404).
    for (const [request, status] of [
      [batch, 200],
      [search, 200],
      [requestNamed('Fetch one published record by id or profile URL'), 404],
    ] as const) {
      const response = await call({ url: urlOf(request), headers: { 'x-api-key': secret } });
      expect(response.statusCode, `${urlOf(request)} ${response.body}`).toBe(status);
    }
  });

  it('is converted once and then served from memory', async () => {
    const started = performance.now();
    const again = await app.inject({ url: '/postman.json', headers: { host: 'api.example.org' } });
    const againMs = performance.now() - started;
    expect(again.json<PostmanCollection>().variable[0]).toMatchObject({ value: 'http://api.example.org' });
    expect(againMs).toBeLessThan(firstMs);
    const odd = await app.inject({ url: '/postman.json', headers: { host: 'bad host"' } });
    expect(odd.json<PostmanCollection>().variable[0]).toMatchObject({ value: '' });
  });

  function requestNamed(name: string): Request {
    const found = requests.find((request) => request.name === name)?.request;
    if (found === undefined) throw new Error(`no request ${name}`);
    return found;
  }
});

function leaves(items: Item[]): Item[] {
  return items.flatMap((item) => (item.item === undefined ? [item] : leaves(item.item)));
}

/** A request's URL as Postman sends it: its enabled parameters, path variables filled in. */
function urlOf(request: Request): string {
  const variables = new Map((request.url.variable ?? []).map(({ key, value }) => [key, value]));
  const path = request.url.path.map((segment) =>
    segment.startsWith(':') ? encodeURIComponent(variables.get(segment.slice(1)) ?? '') : segment,
  );
  const query = (request.url.query ?? [])
    .filter((parameter) => parameter.disabled !== true)
    .map(({ key, value }) => `${key}=${value}`)
    .join('&');
  return `/${path.join('/')}${query === '' ? '' : `?${query}`}`;
}
