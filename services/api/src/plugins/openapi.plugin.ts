import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { COUNTRY_CODES, COUNTRY_QUERY_PATTERN } from '@directory/domain';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { RESPONSE_DESCRIPTIONS, TAG_DECLARATIONS } from '../routes/route-docs.js';
import { addWebhooks } from './openapi-webhooks.js';
import { MORE_SUCCESS_EXAMPLES, SUCCESS_EXAMPLES, problemExamples } from '../routes/response-examples.js';
import {
  baseUrlFor,
  toPostmanCollection,
  withBaseUrl,
  type PostmanCollection,
} from './postman-collection.js';

export const OPENAPI_VERSION = '1.5.0';

const DESCRIPTION = `Read-only access to published doctor and clinic directory records.

**Authentication**: every \`/api/v1\` request needs an API key, as \`X-API-Key: <key>\` (canonical) or \`Authorization: Bearer <key>\`. Never put a key in a URL: a request with a key in the query string is rejected with 400. A missing, malformed, unknown or revoked key gets 401, which must not be retried. Keys are created and revoked in the web console.

**Sandbox** (API 1.3): a key's mode is its prefix. \`dk_live_…\` keys read the directory; \`dk_test_…\` keys (test keys, created in the console like live ones) read the sandbox, a fixed sample dataset served by the same operations with answers of the same shapes, so a program can be built and tested without live data. A test key never reads a live record and a live key never a sandbox one, in every operation (changes feed included). A test key has its own quota, and an account's sandbox requests count against a ceiling of their own, never against its live keys'.

**Errors** are RFC 9457 problem details (\`application/problem+json\`): \`type\`, \`title\`, \`status\`, \`detail\` and \`errors\`, a list of \`{parameter, reason}\` naming every bad parameter. \`type\` is a URI reference relative to the API's origin (\`/problems/rate-limited\`): \`GET\` it, without a key, for the type's page, HTML for a browser or JSON (\`Accept: application/json\`).

**Rate limits** are per key, in fixed windows shared by every server. Authenticated responses carry the IETF httpapi draft's structured fields \`RateLimit-Policy: "key";q=<requests per window>;w=<window seconds>\` and \`RateLimit: "key";r=<remaining>;t=<seconds until the window resets>\` and, as since API 1.1, \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (the same numbers). When the window is exhausted the API answers 429 with \`Retry-After\` (whole seconds, never earlier than the window's end). Failed authentication does not spend quota.

**Request ids**: every response carries \`X-Request-Id\`, the id the server's logs know the request by; quote it when reporting a problem.

**Caching** (API 1.2): every successful GET answer carries a strong \`ETag\`; send it back in \`If-None-Match\` and an unchanged answer comes back as 304 with no body, which does not spend the key's quota (a key already at its limit still gets 429). Answers depend on the key: \`Cache-Control: private, no-cache\` and \`Vary: X-API-Key, Authorization\`; errors are \`no-store\`.

**Compatibility**: API 1.x only adds. Response objects are open (their schemas do not forbid other properties): a client must ignore fields it does not know, so that a new optional field never breaks it. The server itself writes exactly the fields listed.

**whatsappEligible** is a technical reachability signal only: the published primary phone appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.`;

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this key', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window resets', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description:
      'The key\'s quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies)',
    schema: { type: 'string', examples: ['"key";q=120;w=60'] },
  },
  RateLimit: {
    description:
      'What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>`',
    schema: { type: 'string', examples: ['"key";r=119;t=42'] },
  },
};
const REQUEST_ID = {
  'X-Request-Id': {
    description:
      'The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem',
    schema: { type: 'string', format: 'uuid' },
  },
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Whole seconds to wait; never earlier than the end of the window',
    schema: { type: 'integer' },
  },
};
const ETAG = {
  ETag: {
    description:
      'Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged',
    schema: { type: 'string', examples: ['"mJm4rN0yq1Qv1b6y8b2kq3tXo3r"'] },
  },
};
const CACHING_HEADERS = {
  'Cache-Control': {
    description:
      '`private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors',
    schema: { type: 'string', examples: ['private, no-cache', 'no-store'] },
  },
  Vary: {
    description: 'The request headers that carry the API key: the answer depends on the key',
    schema: { type: 'string', examples: ['X-API-Key, Authorization'] },
  },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form.',
  schema: { type: 'string' },
};

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds what the zod transform cannot express: response descriptions, rate-limit and caching headers,
 * `application/problem+json` for error bodies, and on every GET the `If-None-Match` parameter and the
 * 304 (both from the one caching hook, registerHttpCaching); and publishes the response schemas open
 * (see `openResponseSchema`).
 */
function finishDocument(document: JsonObject): JsonObject {
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || !path.startsWith('/api/v1/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      const responses = operation.responses;
      // The caching hook tags JSON answers only: a streamed body (an export's NDJSON) has no ETag or 304.
      const tagged = isJsonAnswer(responses['200']);
      if (method === 'get') {
        if (tagged) responses['304'] = { description: RESPONSE_DESCRIPTIONS[304] };
        const parameters: unknown[] = Array.isArray(operation.parameters) ? operation.parameters : [];
        operation.parameters = [
          ...parameters.map(describeParameter),
          ...(tagged ? [{ ...IF_NONE_MATCH }] : []),
        ];
      }
      // Statuses any request can meet that no route schema names (the one error handler writes them).
      for (const status of ['431', '500', 'default']) {
        responses[status] = {
          content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}Problem` } } },
        };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!isObject(response)) continue;
        response.description = RESPONSE_DESCRIPTIONS[status] ?? response.description;
        // Headers a route declares itself (an export's cursors) are kept beside the common ones.
        response.headers = {
          ...responseHeaders(status, tagged),
          ...(isObject(response.headers) ? response.headers : {}),
        };
        const code = Number(status);
        if (
          (code >= 400 || status === 'default') &&
          isObject(response.content) &&
          response.content['application/json'] !== undefined
        ) {
          response.content = { 'application/problem+json': response.content['application/json'] };
        }
        for (const media of Object.values(isObject(response.content) ? response.content : {})) {
          if (!isObject(media)) continue;
          openResponseSchema(media.schema, componentSchemas(document));
          const more = MORE_SUCCESS_EXAMPLES[path];
          if (code === 200 && more === undefined) media.example = SUCCESS_EXAMPLES[path];
          else if (code === 200) media.examples = { main: { value: SUCCESS_EXAMPLES[path] }, ...more };
          else
            media.examples = Object.fromEntries(
              Object.entries(problemExamples(status, path)).map(([name, value]) => [name, { value }]),
            );
        }
      }
    }
  }
  dropUnusedInputSchemas(document);
  dropComponentIds(document);
  addDiscriminators(document);
  addWebhooks(document, componentSchemas(document));
  sortComponentSchemas(document);
  return document;
}

// zod registers a component when the module declaring it is loaded, so their order would be the order
// in which modules happened to load: in name order, one process's document is every process's.
function sortComponentSchemas(document: JsonObject): void {
  if (!isObject(document.components) || !isObject(document.components.schemas)) return;
  const schemas = document.components.schemas;
  document.components.schemas = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, schemas[name]]),
  );
}

/**
 * A `oneOf` of components that each fix a `type` property to one constant (zod's discriminated unions:
 * the typeahead's suggestions) gets its `discriminator`, so generated clients pick the member by `type`
 * instead of trying each in turn (typescript-fetch turned a body that fits none into `{}`, Java wraps
 * it in an instance to unwrap).
 */
function addDiscriminators(document: JsonObject): void {
  const components = componentSchemas(document);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const mapping = Array.isArray(node.oneOf) ? discriminatorMapping(node.oneOf, components) : undefined;
    if (mapping !== undefined) node.discriminator = { propertyName: 'type', mapping };
    Object.values(node).forEach(visit);
  };
  visit(components);
}

/** `type` constant → component reference, when every member is a component with its own constant. */
function discriminatorMapping(members: unknown[], components: JsonObject): JsonObject | undefined {
  const mapping: JsonObject = {};
  for (const member of members) {
    const ref = isObject(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
    if (ref === undefined || !ref.startsWith(COMPONENT_REF)) return undefined;
    const schema = components[ref.slice(COMPONENT_REF.length)];
    const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
    const type = isObject(properties.type) ? properties.type.const : undefined;
    if (typeof type !== 'string' || type in mapping) return undefined;
    mapping[type] = ref;
  }
  return members.length > 0 ? mapping : undefined;
}

/**
 * What a query parameter's zod schema cannot say: a list (`type: array`) is sent as one comma-separated
 * value, which is how every list parameter is parsed (`style: form`, `explode: false`); a schema marked
 * `deprecated` makes the parameter deprecated (where generators and viewers look for it).
 */
function describeParameter(parameter: unknown): unknown {
  if (!isObject(parameter) || parameter.in !== 'query' || !isObject(parameter.schema)) return parameter;
  const { deprecated, ...schema } = parameter.schema;
  if (schema.pattern === COUNTRY_QUERY_PATTERN) return describeCountry(parameter, schema);
  return {
    ...parameter,
    schema,
    ...(deprecated === true ? { deprecated: true } : {}),
    ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
  };
}

/**
 * `country` is accepted in any case, which its schema says with a pattern (`[dD][eE]|…`); generators
 * make a typed union of an enum and nothing of a pattern, so the document lists the codes as an enum,
 * lowercase, and says that uppercase is accepted too.
 */
function describeCountry(parameter: JsonObject, schema: JsonObject): JsonObject {
  const { pattern: _pattern, ...rest } = schema;
  const description = typeof parameter.description === 'string' ? `${parameter.description} ` : '';
  return {
    ...parameter,
    description: `${description}Listed lowercase; uppercase (\`DE\`) is accepted too.`,
    schema: { ...rest, enum: [...COUNTRY_CODES] },
    example: parameter.example ?? COUNTRY_CODES[0],
  };
}

/**
 * The headers of a response, by status. A 431 is answered before the request is read (the socket's
 * own answer): none of the headers the request's hooks add. A 401 spends no quota: no RateLimit-*.
 */
function responseHeaders(status: string, tagged = true): JsonObject {
  if (status === '431') return {};
  const code = Number(status);
  const headers: JsonObject = { ...REQUEST_ID };
  if (code !== 401 && status !== 'default') Object.assign(headers, RATE_LIMIT_HEADERS);
  if (code === 429) Object.assign(headers, RETRY_AFTER);
  if (tagged && (code === 200 || code === 304)) Object.assign(headers, ETAG);
  Object.assign(headers, CACHING_HEADERS);
  return headers;
}

/** Whether a 200 is JSON (what the caching hook tags); true when the operation documents none. */
function isJsonAnswer(response: unknown): boolean {
  if (!isObject(response) || !isObject(response.content)) return true;
  return response.content['application/json'] !== undefined;
}

// zod's `.meta({ id })` is what registers a component, and the transform leaves it in the schema as
// `$id: "#/components/schemas/X"`. JSON Schema 2020-12 forbids a fragment in `$id`, so a strict
// validator refuses the component; `$ref`s name components by their place in the document anyway.
function dropComponentIds(document: JsonObject): void {
  for (const schema of Object.values(componentSchemas(document))) {
    if (isObject(schema)) delete schema.$id;
  }
}

const COMPONENT_REF = '#/components/schemas/';
// JSON Schema keywords whose value is a map of schemas, a list of schemas, or one schema.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
];

function componentSchemas(document: JsonObject): JsonObject {
  const components = isObject(document.components) ? document.components : {};
  return isObject(components.schemas) ? components.schemas : {};
}

/**
 * Response schemas are published open: `additionalProperties: false` (zod's strict objects) is removed
 * from a response schema and every component it refers to, so a client validating against the document
 * keeps working when a later 1.x adds a field (it must ignore fields it does not know). Only the
 * document changes: the serializer compiles its writers from the zod schemas themselves, still closed,
 * so the server writes exactly the allowlisted fields. Request parameters keep their strict schemas.
 */
function openResponseSchema(schema: unknown, components: JsonObject, opened = new Set<string>()): void {
  if (!isObject(schema)) return;
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT_REF)) {
    const name = schema.$ref.slice(COMPONENT_REF.length);
    if (!opened.has(name)) {
      opened.add(name);
      openResponseSchema(components[name], components, opened);
    }
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (isObject(map)) for (const value of Object.values(map)) openResponseSchema(value, components, opened);
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const value of list) openResponseSchema(value, components, opened);
  }
  for (const keyword of SCHEMA_VALUES) openResponseSchema(schema[keyword], components, opened);
}

// The zod transform emits an `…Input` twin of every registered schema; our request schemas are
// inline, so the twins are noise unless something refers to them.
function dropUnusedInputSchemas(document: JsonObject): void {
  const schemas = componentSchemas(document);
  const paths = JSON.stringify(document.paths ?? {});
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !paths.includes(`#/components/schemas/${name}"`)) delete schemas[name];
  }
}

export type OpenApiOptions = {
  /** The public website's origin (config SITE_ORIGIN): the document's contact. */
  siteOrigin?: string;
};

/** OpenAPI 3.1 generated from the route schemas; `/openapi.json` and the `/docs` reference need no key. */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Doctor directory API',
        version: OPENAPI_VERSION,
        description: DESCRIPTION,
        ...(options.siteOrigin ? { contact: { name: 'Doctor directory', url: options.siteOrigin } } : {}),
      },
      // The same records as a read-only FHIR R4 directory (docs/fhir.md), described by its own
      // CapabilityStatement rather than here.
      externalDocs: {
        description:
          'The same published records as a read-only FHIR R4 directory (Organization, Location, HealthcareService), with the same API keys: its CapabilityStatement',
        url: '/fhir/R4/metadata',
      },
      // Relative: each deployment serves its own API, and `/` resolves against wherever this document
      // was fetched from (its `/openapi.json`). Generated clients take their base URL as an option.
      servers: [
        {
          url: '/',
          description:
            'The server that serves this document (`/openapi.json`): paths below are relative to its origin',
        },
      ],
      tags: TAG_DECLARATIONS,
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
  registerPostmanCollection(app);
}

/**
 * `GET /postman.json`: the document as a Postman collection (postman-collection.ts), no key needed like
 * `/openapi.json`. Converted on the first request (about a third of a second, not worth every start of
 * every server) and kept; a failed conversion is tried again on the next request.
 */
function registerPostmanCollection(app: FastifyInstance): void {
  let collection: Promise<PostmanCollection> | undefined;
  app.get('/postman.json', { schema: { hide: true } }, async (request, reply) => {
    collection ??= toPostmanCollection(app.swagger() as JsonObject).catch((error: unknown) => {
      collection = undefined;
      throw error;
    });
    const json = withBaseUrl(await collection, baseUrlFor(request.protocol, request.host));
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
