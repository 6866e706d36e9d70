import { beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_PAGES } from '../src/routes/problems/problem-pages.js';
import { buildOpenApiDocument } from '../../../infra/openapi/document.js';
import { openApiValidatorFor } from './support/openapi-validator.js';

type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Response = { content?: Record<string, Media>; headers?: Record<string, unknown> };
type Document = Parameters<typeof openApiValidatorFor>[0] & {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
};

/** Every response of every operation, with its media types. */
function responsesOf(document: Document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.entries(operation.responses).map(([status, response]) => ({ path, method, status, response })),
    ),
  );
}

// Built as /openapi.json serves it, without any server (infra/openapi/document.ts). Compiling a validator
// for every example's schema takes about 1.6 s alone, past vitest's 5 s when both cores are busy.
describe('OpenAPI response examples', { timeout: 30_000 }, () => {
  let document: Document;
  beforeAll(async () => {
    document = (await buildOpenApiDocument()) as Document;
  }, 30_000);

  it('gives every response with a body an example, and only bodyless 304s go without', () => {
    const missing: string[] = [];
    for (const { path, method, status, response } of responsesOf(document)) {
      if (response.content === undefined) {
        if (status !== '304') missing.push(`${method} ${path} ${status}: no content`);
        continue;
      }
      for (const [type, media] of Object.entries(response.content)) {
        const count = (media.example === undefined ? 0 : 1) + Object.keys(media.examples ?? {}).length;
        if (count === 0) missing.push(`${method} ${path} ${status} ${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has examples that each validate against their own schema, open and closed', () => {
    const validator = openApiValidatorFor(document);
    let checked = 0;
    for (const { path, method, status, response } of responsesOf(document)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        const values = [
          ...(media.example === undefined ? [] : [media.example]),
          ...Object.values(media.examples ?? {}).map((example) => example.value),
        ];
        for (const value of values) {
          expect(() => validator.checkBody(path, method, status, type, value)).not.toThrow();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('has problem examples whose status is their response status and whose type has a page', () => {
    for (const { path, method, status, response } of responsesOf(document)) {
      const problems = Object.values(response.content?.['application/problem+json']?.examples ?? {});
      for (const { value } of problems) {
        const problem = value as { type: string; status: number };
        if (status !== 'default') expect(problem.status, `${method} ${path} ${status}`).toBe(Number(status));
        if (problem.type !== 'about:blank') {
          expect(Object.keys(PROBLEM_PAGES).map((name) => `/problems/${name}`)).toContain(problem.type);
        }
      }
    }
  });

  it('describes X-Request-Id on every response the request hooks answer', () => {
    for (const { path, method, status, response } of responsesOf(document)) {
      if (status === '431') continue; // answered before the request is read
      expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toContain('X-Request-Id');
    }
  });
});
