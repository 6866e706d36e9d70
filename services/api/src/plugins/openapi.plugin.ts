import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { RESPONSE_DESCRIPTIONS } from '../routes/route-docs.js';

export const OPENAPI_VERSION = '1.1.0';

const DESCRIPTION = `Read-only access to published doctor and clinic directory records.

**Authentication**: every \`/api/v1\` request needs an API key, as \`X-API-Key: <key>\` (canonical) or \`Authorization: Bearer <key>\`. Never put a key in a URL: a request with a key in the query string is rejected with 400. A missing, malformed, unknown or revoked key gets 401, which must not be retried. Keys are created and revoked in the web console.

**Errors** are RFC 9457 problem details (\`application/problem+json\`): \`type\`, \`title\`, \`status\`, \`detail\` and \`errors\`, a list of \`{parameter, reason}\` naming every bad parameter.

**Rate limits** are per key, in fixed windows shared by every server. Successful responses carry \`RateLimit-Limit\` (requests per window), \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds until the window resets) and \`RateLimit-Policy: <limit>;w=<window seconds>\`. When the window is exhausted the API answers 429 with \`Retry-After\` (whole seconds, never earlier than the window's end). Failed authentication does not spend quota.

**whatsappEligible** is a technical reachability signal only: the published primary phone appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.`;

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this key', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window resets', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: 'The quota policy: `<limit>;w=<window seconds>`',
    schema: { type: 'string', examples: ['120;w=60'] },
  },
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Whole seconds to wait; never earlier than the end of the window',
    schema: { type: 'integer' },
  },
};
const ETAG = { ETag: { description: 'Entity tag of the record', schema: { type: 'string' } } };

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds what the zod transform cannot express: response descriptions, rate-limit and ETag headers,
 * `application/problem+json` for error bodies, and the 304 of the single-record route.
 */
function finishDocument(document: JsonObject): JsonObject {
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || !path.startsWith('/api/v1/')) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      const responses = operation.responses;
      if (operation.operationId === 'getDoctor')
        responses['304'] = { description: RESPONSE_DESCRIPTIONS[304] };
      for (const [status, response] of Object.entries(responses)) {
        if (!isObject(response)) continue;
        response.description = RESPONSE_DESCRIPTIONS[status] ?? response.description;
        const code = Number(status);
        const headers: JsonObject = {};
        if (code !== 401) Object.assign(headers, RATE_LIMIT_HEADERS);
        if (code === 429) Object.assign(headers, RETRY_AFTER);
        if ((code === 200 || code === 304) && operation.operationId === 'getDoctor')
          Object.assign(headers, ETAG);
        response.headers = headers;
        if (code >= 400 && isObject(response.content) && response.content['application/json'] !== undefined) {
          response.content = { 'application/problem+json': response.content['application/json'] };
        }
      }
    }
  }
  dropUnusedInputSchemas(document);
  return document;
}

// The zod transform emits an `…Input` twin of every registered schema; our request schemas are
// inline, so the twins are noise unless something refers to them.
function dropUnusedInputSchemas(document: JsonObject): void {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const paths = JSON.stringify(document.paths ?? {});
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !paths.includes(`#/components/schemas/${name}"`)) delete schemas[name];
  }
}

/** OpenAPI 3.1 generated from the route schemas; `/openapi.json` and the `/docs` reference need no key. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Doctor directory API', version: OPENAPI_VERSION, description: DESCRIPTION },
      tags: [
        { name: 'key', description: 'The API key in use' },
        { name: 'doctors', description: 'Published doctor and clinic records' },
      ],
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'The API key (canonical form)',
          },
          Bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a Bearer token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input) as JsonObject),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, (_request, reply) => reply.send(app.swagger()));
}
