import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

type JsonObject = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: JsonObject }> }> };
type OpenApiDocument = JsonObject & { paths: Record<string, Record<string, Operation>> };

/** What a check needs of a response: app.inject()'s replies have it, and so does `fetchedResponse`. */
export type CheckedResponse = {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: () => unknown;
};

/** A fetch() response read as a `CheckedResponse` (for end-to-end tests against a running server). */
export async function fetchedResponse(response: Response): Promise<CheckedResponse> {
  const body = await response.text();
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    body,
    json: () => JSON.parse(body) as unknown,
  };
}

/**
 * Validates responses against the OpenAPI document the app serves at /openapi.json: the status must
 * be documented for the operation, the content type must be the documented one, and the body must
 * validate against its schema (components resolved through the document itself). The published
 * response schemas are open (clients ignore unknown fields), but the server promises more: it writes
 * only the fields a schema lists. So the body must also validate against `closedDocument(document)`.
 */
export async function createOpenApiValidator(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  return openApiValidatorFor(response.json<OpenApiDocument>());
}

/** The same checks against a document fetched from a running server. */
export function openApiValidatorFor(document: OpenApiDocument) {
  const published = compilerFor(document);
  const declaredFieldsOnly = compilerFor(closedDocument(document));

  return {
    document,
    /** Throws with a readable message when the response does not match the document. */
    check(path: string, method: string, reply: CheckedResponse): void {
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (operation === undefined) throw new Error(`${method} ${path} is not documented`);
      const status = String(reply.statusCode);
      const documented = operation.responses[status];
      if (documented === undefined) throw new Error(`${method} ${path}: status ${status} is not documented`);
      if (documented.content === undefined) {
        if (reply.body !== '') throw new Error(`${method} ${path} ${status}: expected no body`);
        return;
      }
      const contentType = String(reply.headers['content-type'] ?? '').split(';')[0] ?? '';
      const media = documented.content[contentType];
      if (media === undefined) {
        throw new Error(`${method} ${path} ${status}: content type ${contentType} is not documented`);
      }
      checkBody(path, method, status, contentType, reply.json(), reply.body);
    },
    checkBody,
    /** Throws unless `body` validates as the request body of the document's webhook `name`. */
    checkWebhook(name: string, body: unknown): void {
      const pointer = `openapi.json#/webhooks/${escape(name)}/post/requestBody/content/application~1json/schema`;
      for (const compiler of [published, declaredFieldsOnly]) {
        const problem = compiler.errorsOf(pointer, body);
        if (problem !== null)
          throw new Error(`webhook ${name}: ${problem}\n${JSON.stringify(body).slice(0, 500)}`);
      }
    },
  };

  /** Throws unless `body` validates against the documented schema, open and closed (`raw` is shown). */
  function checkBody(
    path: string,
    method: string,
    status: string,
    contentType: string,
    body: unknown,
    raw = JSON.stringify(body),
  ): void {
    const pointer = `openapi.json#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/${escape(contentType)}/schema`;
    for (const [compiler, what] of [
      [published, 'the document'],
      [declaredFieldsOnly, 'the document with its objects closed (a field the schema does not list)'],
    ] as const) {
      const problem = compiler.errorsOf(pointer, body);
      if (problem !== null) {
        throw new Error(`${method} ${path} ${status} (${what}): ${problem}\n${raw.slice(0, 500)}`);
      }
    }
  }
}

/** Compiles (once per pointer) and runs the schema at a pointer into the document. */
function compilerFor(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return {
    /** Null when the value validates, else the errors as text. */
    errorsOf(pointer: string, value: unknown): string | null {
      let validate = cache.get(pointer);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: pointer });
        cache.set(pointer, validate);
      }
      return validate(value) ? null : ajv.errorsText(validate.errors);
    },
  };
}

/**
 * A copy of the document in which every object schema that lists its properties and says nothing of
 * others is closed (`additionalProperties: false`), as the server's zod schemas are. Schemas that
 * say `additionalProperties` themselves (the open objects, maps) are left as they are.
 */
function closedDocument(document: OpenApiDocument): OpenApiDocument {
  const close = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) close(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const schema = node as JsonObject;
    if (
      schema.type === 'object' &&
      typeof schema.properties === 'object' &&
      !('additionalProperties' in schema)
    ) {
      schema.additionalProperties = false;
    }
    for (const value of Object.values(schema)) close(value);
  };
  const copy = structuredClone(document);
  close(copy);
  return copy;
}

// JSON pointer escaping (RFC 6901), then URI-encoding for use in a $ref fragment.
function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}
