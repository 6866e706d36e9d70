import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type JsonObject = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: JsonObject }> }> };

/**
 * Validates responses against the OpenAPI document the app serves at /openapi.json: the status must
 * be documented for the operation, the content type must be the documented one, and the body must
 * validate against its schema (components resolved through the document itself).
 */
export async function createOpenApiValidator(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  const document = response.json<JsonObject & { paths: Record<string, Record<string, Operation>> }>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();

  return {
    document,
    /** Throws with a readable message when the response does not match the document. */
    check(path: string, method: string, reply: LightMyRequestResponse): void {
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
      const pointer = `openapi.json#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/${escape(contentType)}/schema`;
      let validate = cache.get(pointer);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: pointer });
        cache.set(pointer, validate);
      }
      if (!validate(reply.json())) {
        throw new Error(
          `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}\n${reply.body.slice(0, 500)}`,
        );
      }
    },
  };
}

// JSON pointer escaping (RFC 6901), then URI-encoding for use in a $ref fragment.
function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}
