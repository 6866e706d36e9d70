import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DOCTOR_KEYS } from '@directory/domain';
import { createApiHarness, type ApiHarness } from './support/api-harness.js';

type Document = {
  openapi: string;
  info: { version: string; description: string };
  paths: Record<
    string,
    Record<
      string,
      {
        description?: string;
        security?: unknown;
        responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
      }
    >
  >;
  components: {
    schemas: Record<
      string,
      { properties?: Record<string, unknown>; additionalProperties?: unknown; required?: string[] }
    >;
    securitySchemes: Record<string, unknown>;
  };
};

describe('OpenAPI document (SPEC §9)', () => {
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

  it('is served without a key, at version 1.1.0, and is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes exactly the three operations, each secured by the API key header or Bearer', () => {
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/v1/doctors',
      '/api/v1/doctors/{doctorId}',
      '/api/v1/key',
    ]);
    expect(document.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      Bearer: { type: 'http', scheme: 'bearer' },
    });
    for (const item of Object.values(document.paths)) {
      expect(item.get?.security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
    }
  });

  it('declares the Doctor allowlist with every field required and nothing else allowed', () => {
    const doctor = document.components.schemas.Doctor;
    expect(Object.keys(doctor?.properties ?? {}).sort()).toEqual([...DOCTOR_KEYS].sort());
    expect([...(doctor?.required ?? [])].sort()).toEqual([...DOCTOR_KEYS].sort());
    expect(doctor?.additionalProperties).toBe(false);
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
      ]),
    );
    expect(Object.keys(search?.responses['429']?.headers ?? {})).toContain('Retry-After');
    for (const status of ['400', '401', '429', '503']) {
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
      '503',
    ]);
  });
});
