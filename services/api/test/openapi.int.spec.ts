import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DOCTOR_KEYS, toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import { createApiHarness, createCaller, type ApiHarness } from './support/api-harness.js';
import { openApiValidatorFor } from './support/openapi-validator.js';

type Document = {
  openapi: string;
  info: { version: string; description: string };
  tags: Array<{ name: string; description?: string }>;
  paths: Record<
    string,
    Record<
      string,
      {
        description?: string;
        tags?: string[];
        security?: unknown;
        parameters?: Array<{ name: string; in: string; required?: boolean }>;
        responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
      }
    >
  >;
  webhooks: Record<string, Record<string, { tags?: string[] }>>;
  components: {
    schemas: Record<
      string,
      { properties?: Record<string, unknown>; additionalProperties?: unknown; required?: string[] }
    >;
    securitySchemes: Record<string, unknown>;
  };
};

describe('OpenAPI document', () => {
  let harness: ApiHarness;
  let app: FastifyInstance;
  let document: Document;
  beforeAll(async () => {
    harness = await createApiHarness('api-openapi');
    app = await harness.newApp();
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
  });
  afterAll(() => harness.close());

  it('is served without a key, at version 1.5.0, and is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.5.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("names a server relative to the document's own origin and the website as contact", () => {
    const { servers, info } = document as unknown as {
      servers: Array<{ url: string }>;
      info: { contact?: { url?: string } };
    };
    expect(servers.map((server) => server.url)).toEqual(['/']);
    expect(info.contact?.url).toBe(SITE_ORIGIN);
  });

  it('has component schemas that each compile alone as JSON Schema 2020-12 (Ajv strict mode)', () => {
    // A client may take any one component out of the document. Its `$ref`s point into the document, so
    // the components are bundled as one resource (under `$defs`, the 2020-12 place for them) that the
    // refs are pointed at; the component itself is compiled as served otherwise.
    const bundle = 'https://directory.test/components.json';
    const pointAtBundle = (schema: unknown): object =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${bundle}#/$defs/`)) as object;
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining(['Doctor', 'SelectedDoctorPage', 'SelectedDoctorResponse', 'Key', 'Problem']),
    );
    for (const name of names) {
      const schema = document.components.schemas[name];
      expect(schema, name).not.toHaveProperty('$id');
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      // OpenAPI 3.1's dialect adds `discriminator` to JSON Schema: an annotation for generators.
      ajv.addKeyword('discriminator');
      ajv.addSchema({ $id: bundle, $defs: pointAtBundle(document.components.schemas) });
      expect(() => ajv.compile(pointAtBundle(schema)), name).not.toThrow();
    }
  });

  it('describes exactly the eleven operations, each secured by the API key header or Bearer', () => {
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/v1/changes',
      '/api/v1/cities',
      '/api/v1/datasets',
      '/api/v1/doctors',
      '/api/v1/doctors/{doctorId}',
      '/api/v1/doctors:batchGet',
      '/api/v1/exports/{country}',
      '/api/v1/facets/{name}',
      '/api/v1/key',
      '/api/v1/specialties',
      '/api/v1/suggest',
    ]);
    expect(document.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      Bearer: { type: 'http', scheme: 'bearer' },
    });
    for (const item of Object.values(document.paths)) {
      expect(item.get?.security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
    }
  });

  it('declares each tag its operations use, with a description', () => {
    // Operations the API answers, and the deliveries it sends (`webhooks`, OpenAPI 3.1).
    const used = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap((item) =>
      Object.values(item).flatMap((operation) => operation.tags ?? []),
    );
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'key',
      'doctors',
      'changes',
      'exports',
      'cities',
      'specialties',
      'suggest',
      'facets',
      'datasets',
      'webhooks',
    ]);
    expect(new Set(used)).toEqual(new Set(document.tags.map((tag) => tag.name)));
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
  });

  it('describes the three signed deliveries the API sends, with their headers and bodies (API 1.3)', () => {
    const validator = openApiValidatorFor(document as Parameters<typeof openApiValidatorFor>[0]);
    type Delivery = { post: { parameters: Array<{ name: string; in: string; required: boolean }> } };
    const webhooks = document.webhooks as unknown as Record<string, Delivery>;
    expect(Object.keys(webhooks).sort()).toEqual(['doctor.deleted', 'doctor.upserted', 'webhook.test']);
    for (const [name, delivery] of Object.entries(webhooks)) {
      expect(
        delivery.post.parameters.map((header) => [header.name, header.in, header.required]),
        name,
      ).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
    }
    const built = toSearchDocument(placeState({ id: 'hook', name: 'Praxis Hook' }), {
      siteOrigin: SITE_ORIGIN,
    });
    if (!built.served) throw new Error('the fixture is served');
    const { doctor } = built;
    const changedAt = '2026-11-27T10:15:03.120Z';
    const data = { id: 'hook', country: 'de', version: 3, changedAt };
    validator.checkWebhook('doctor.upserted', {
      type: 'doctor.upserted',
      timestamp: changedAt,
      data: { ...data, doctor },
    });
    validator.checkWebhook('doctor.deleted', {
      type: 'doctor.deleted',
      timestamp: changedAt,
      data: { ...data, doctor: null },
    });
    validator.checkWebhook('webhook.test', {
      type: 'webhook.test',
      timestamp: changedAt,
      data: { endpointId: '5f0c6a43-3f55-4a8e-9c55-2a1d3c6b9e10' },
    });
    // A body that is not one of them is refused: the schemas are not open to anything.
    expect(() =>
      validator.checkWebhook('doctor.upserted', { type: 'doctor.upserted', timestamp: changedAt, data }),
    ).toThrow(/doctor/);
  });

  it('describes the changes feed with open objects around the Doctor', () => {
    const feed = document.paths['/api/v1/changes']?.get;
    expect(feed?.description).toMatch(/no change is ever skipped/i);
    expect(Object.keys(feed?.responses ?? {}).sort()).toEqual([
      '200',
      '304',
      '400',
      '401',
      '429',
      '431',
      '500',
      '503',
      'default',
    ]);
    expect(Object.keys(feed?.responses['200']?.headers ?? {})).toContain('RateLimit-Policy');
    for (const name of ['ChangesPage', 'Change']) {
      expect(document.components.schemas[name]?.additionalProperties).toEqual({});
    }
    expect(JSON.stringify(document.components.schemas.Change)).toContain('#/components/schemas/Doctor');
  });

  it('declares the Doctor allowlist with every field required, open to fields a later 1.x adds', () => {
    const doctor = document.components.schemas.Doctor;
    expect(Object.keys(doctor?.properties ?? {}).sort()).toEqual([...DOCTOR_KEYS].sort());
    expect([...(doctor?.required ?? [])].sort()).toEqual([...DOCTOR_KEYS].sort());
    // Not `false`: that would make any added field break a client validating against the schema.
    expect(doctor?.additionalProperties).toBeUndefined();
  });

  it('publishes every response schema open (no additionalProperties: false) and says clients ignore unknown fields', () => {
    const closed: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'additionalProperties' && value === false) closed.push(where);
        visit(value, `${where}/${key}`);
      }
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        visit(operation.responses, `${path} ${method}`);
      }
    }
    visit(document.components.schemas, 'components');
    expect(closed).toEqual([]);
    expect(document.info.description).toMatch(/must ignore fields it does not know/);
  });

  it('still writes exactly the allowlisted fields: the serializer is not opened with the document', async () => {
    const { secret } = await harness.createKey();
    // placeState's observed record carries a crawler field the allowlist must drop.
    await harness.index([placeState({ id: 'openapi-open-1', name: 'Praxis Offen' })]);
    const call = await createCaller(app);
    const response = await call({ url: '/api/v1/doctors/openapi-open-1', headers: { 'x-api-key': secret } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ doctor: Record<string, unknown> }>();
    expect(Object.keys(body)).toEqual(['doctor']);
    expect(Object.keys(body.doctor).sort()).toEqual([...DOCTOR_KEYS].sort());
    expect(response.body).not.toContain('crawlerNote');
  });

  it("keeps the tests' response checks closed: a field outside the allowlist still fails them", async () => {
    const { secret } = await harness.createKey();
    const reply = await app.inject({ url: '/api/v1/key', headers: { 'x-api-key': secret } });
    const validator = openApiValidatorFor(document as Parameters<typeof openApiValidatorFor>[0]);
    expect(() => validator.check('/api/v1/key', 'GET', reply)).not.toThrow();
    const body = reply.json<{ key: Record<string, unknown> }>();
    const withExtra = JSON.stringify({ key: { ...body.key, secretHash: 'x' } });
    const extra = { ...reply, body: withExtra, json: () => JSON.parse(withExtra) as unknown };
    expect(() => validator.check('/api/v1/key', 'GET', extra)).toThrow(/closed/);
  });

  it('documents ordering, cursors, errors, rate-limit headers and the WhatsApp disclaimer', () => {
    const text = JSON.stringify(document);
    const search = document.paths['/api/v1/doctors']?.get;
    expect(search?.description).toMatch(/folded .*name, then id/i);
    expect(search?.description).toMatch(/signed/);
    expect(search?.description).toMatch(/different filters/);
    expect(text).toMatch(/not consent/);
    expect(text).toMatch(/problem\+json/);
    const ok = search?.responses['200'];
    expect(Object.keys(ok?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
        'X-Request-Id',
      ]),
    );
    expect(Object.keys(search?.responses['429']?.headers ?? {})).toContain('Retry-After');
    for (const status of ['400', '401', '429', '431', '500', '503', 'default']) {
      expect(Object.keys(search?.responses[status]?.content ?? {})).toEqual(['application/problem+json']);
    }
    const single = document.paths['/api/v1/doctors/{doctorId}']?.get;
    expect(Object.keys(single?.responses ?? {}).sort()).toEqual([
      '200',
      '304',
      '400',
      '401',
      '404',
      '429',
      '431',
      '500',
      '503',
      'default',
    ]);
  });

  it('documents HTTP caching on every GET: If-None-Match, the 304, and ETag, Cache-Control and Vary headers', () => {
    const text = JSON.stringify(document.info.description);
    expect(text).toMatch(/If-None-Match/);
    expect(text).toMatch(/private, no-cache/);
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.get;
      expect(operation, path).toBeDefined();
      const responses = operation?.responses ?? {};
      // A streamed (non-JSON) answer, an export's NDJSON, is never tagged: no If-None-Match, 304 or ETag.
      const tagged = responses['200']?.content?.['application/json'] !== undefined;
      expect(
        operation?.parameters?.filter((parameter) => parameter.name === 'If-None-Match'),
        path,
      ).toEqual(tagged ? [expect.objectContaining({ in: 'header', required: false })] : []);
      if (!tagged) expect(responses['304'], path).toBeUndefined();
      expect(responses['304']?.content, path).toBeUndefined();
      for (const [status, response] of Object.entries(responses)) {
        if (status === '431') continue; // answered before the request is read: no hook's headers
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${path} ${status}`).toEqual(expect.arrayContaining(['Cache-Control', 'Vary']));
        if (tagged && (status === '200' || status === '304')) {
          expect(headers, `${path} ${status}`).toContain('ETag');
        } else expect(headers, `${path} ${status}`).not.toContain('ETag');
        if (status === '304') expect(headers).toEqual(expect.arrayContaining(['RateLimit-Remaining']));
      }
    }
  });

  it('gives every operation exactly one success schema, a component, never a union (API 1.3)', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const content = item.get?.responses['200']?.content ?? {};
      // An export streams NDJSON: its one schema is that of a line.
      const type = path === '/api/v1/exports/{country}' ? 'application/x-ndjson' : 'application/json';
      expect(Object.keys(content), path).toEqual([type]);
      const { schema } = content[type] as { schema: Record<string, unknown> };
      expect(Object.keys(schema), path).toEqual(['$ref']);
    }
    const successOf = (path: string) =>
      (item(path).responses['200']?.content?.['application/json'] as { schema: { $ref: string } }).schema
        .$ref;
    expect(successOf('/api/v1/doctors')).toBe('#/components/schemas/SelectedDoctorPage');
    expect(successOf('/api/v1/doctors:batchGet')).toBe('#/components/schemas/SelectedDoctorBatch');
    expect(successOf('/api/v1/doctors/{doctorId}')).toBe('#/components/schemas/SelectedDoctorResponse');
    // A search record is one schema whatever `fields` says: `id` required, the rest (distance included) optional.
    const record = document.components.schemas.SelectedSearchResult;
    expect(record?.required).toEqual(['id']);
    expect(Object.keys(record?.properties ?? {})).toEqual(
      expect.arrayContaining([...DOCTOR_KEYS, 'distanceMeters']),
    );
    expect(JSON.stringify(document.paths)).not.toMatch(/"(?:anyOf|oneOf)"/);
  });

  it("names the member of each typed union by its type (the typeahead's suggestions)", () => {
    const list = document.components.schemas.SuggestionList as {
      properties: { suggestions: { items: { discriminator?: unknown } } };
    };
    expect(list.properties.suggestions.items.discriminator).toEqual({
      propertyName: 'type',
      mapping: {
        specialty: '#/components/schemas/SpecialtySuggestion',
        city: '#/components/schemas/CitySuggestion',
        doctor: '#/components/schemas/DoctorSuggestion',
      },
    });
  });

  it('describes list parameters as comma-separated arrays, closed sets as enums, the old ids form as deprecated', () => {
    type Parameter = {
      name: string;
      in: string;
      required?: boolean;
      deprecated?: boolean;
      style?: string;
      explode?: boolean;
      schema: {
        type?: string;
        format?: string;
        pattern?: string;
        enum?: string[];
        items?: { type?: string };
      };
    };
    const parametersOf = (path: string) =>
      new Map(((item(path).parameters ?? []) as Parameter[]).map((parameter) => [parameter.name, parameter]));
    const search = parametersOf('/api/v1/doctors');
    const batch = parametersOf('/api/v1/doctors:batchGet');
    const single = parametersOf('/api/v1/doctors/{doctorId}');
    for (const parameter of [
      search.get('ids'),
      search.get('fields'),
      batch.get('ids'),
      batch.get('fields'),
      single.get('fields'),
    ]) {
      expect(parameter).toMatchObject({
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string' } },
      });
    }
    expect(search.get('ids')?.deprecated).toBe(true);
    expect(search.get('ids')?.schema).not.toHaveProperty('deprecated');
    expect(batch.get('ids')).toMatchObject({ required: true });
    expect(batch.get('ids')?.deprecated).toBeUndefined();
    expect([...batch.keys()]).toEqual(['ids', 'fields', 'lang', 'If-None-Match']);
    expect(search.get('openAt')?.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(search.get('country')?.schema.enum).toEqual(['de', 'es', 'fr', 'gb', 'it', 'mx', 'pt']);
    expect(search.get('sort')?.schema.enum).toEqual(['relevance', 'name', 'distance']);
    const bbox = new RegExp(search.get('bbox')?.schema.pattern ?? '^$');
    expect(bbox.test('13.3,52.4,13.5,52.6')).toBe(true);
    expect(bbox.test('177, -19, -178, -16')).toBe(true);
    expect(bbox.test('13.3,52.4,13.5')).toBe(false);
    // Only query lists are arrays: the rest keep their plain style.
    for (const [name, parameter] of search) {
      if (parameter.schema.type !== 'array') expect(parameter.style, name).toBeUndefined();
    }
  });

  function item(path: string) {
    const operation = document.paths[path]?.get;
    if (operation === undefined) throw new Error(`${path} is not documented`);
    return operation;
  }
});
