import { convertV2, type Options } from 'openapi-to-postmanv2';

/**
 * A Postman collection (format v2.1) of the API, converted from its OpenAPI document by Postman's own
 * converter (`openapi-to-postmanv2`, which reads OpenAPI 3.1): one request per operation, in a folder
 * per tag, each with the document's response examples. What the converter leaves out is added here:
 *
 * - the key: collection-level `apikey` auth sending the `apiKey` variable as `X-API-Key` (the canonical
 *   header; the document's Bearer alternative is not repeated), inherited by every request;
 * - `baseUrl`: the document's server is relative (`/`), so the collection's base URL is the origin it
 *   was fetched from (`withBaseUrl`);
 * - the API version.
 *
 * The deprecated `ids` parameter of search is left out (batch get has its own request). Parameters
 * without an example in the document get a made-up value from their schema (random: the converter
 * cannot be seeded); every optional parameter but `country` is disabled.
 */

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const OPTIONS: Options = {
  folderStrategy: 'Tags',
  requestNameSource: 'Fallback',
  parametersResolution: 'Example',
  enableOptionalParameters: false,
  includeDeprecated: false,
  alwaysInheritAuthentication: true,
  includeAuthInfoInExample: false,
};

const BASE_URL_PLACEHOLDER = 'https://base-url.invalid';

type JsonObject = Record<string, unknown>;

/** A collection with its base URL left as a placeholder for `withBaseUrl`. */
export type PostmanCollection = { json: string };

export async function toPostmanCollection(document: JsonObject): Promise<PostmanCollection> {
  const converted = await new Promise<JsonObject>((resolve, reject) => {
    convertV2({ type: 'json', data: callableOnly(document) }, OPTIONS, (error, result) => {
      const data = result?.output?.[0]?.data as JsonObject | undefined;
      if (error || !result?.result || data === undefined) {
        const reason = error?.message ?? result?.reason ?? 'no output';
        reject(new Error(`OpenAPI to Postman conversion failed: ${reason}`));
      } else resolve(data);
    });
  });
  enableCountry(converted.item);
  const info = converted.info as JsonObject;
  const version = (document.info as JsonObject | undefined)?.version;
  const collection = {
    info: { ...info, schema: POSTMAN_SCHEMA, ...(typeof version === 'string' ? { version } : {}) },
    item: converted.item,
    auth: {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'X-API-Key', type: 'string' },
        { key: 'value', value: '{{apiKey}}', type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ],
    },
    variable: [
      {
        key: 'baseUrl',
        value: BASE_URL_PLACEHOLDER,
        type: 'string',
        description: 'The API origin, without a trailing slash: the one this collection was fetched from',
      },
      {
        key: 'apiKey',
        value: '',
        type: 'string',
        description:
          'Your API key (from the web console), sent as X-API-Key. Keep it in a Postman environment or vault rather than in a shared collection.',
      },
    ],
  };
  return { json: JSON.stringify(collection) };
}

/**
 * `country` is sent by every request that takes it: search needs it (the document calls it optional only
 * for the deprecated `ids` form), and with the document's example (`de`) each request answers as it is.
 */
/**
 * The document without what the API sends (`webhooks`, and the tags only they use): a collection holds
 * the requests a user makes, and a delivery is not one (it would be an empty folder).
 */
function callableOnly(document: JsonObject): JsonObject {
  const { webhooks: _sent, ...callable } = document;
  const paths = (callable.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>;
  const used = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])),
  );
  const tags = Array.isArray(callable.tags) ? (callable.tags as Array<{ name?: string }>) : [];
  return { ...callable, tags: tags.filter((tag) => tag.name !== undefined && used.has(tag.name)) };
}

function enableCountry(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items as JsonObject[]) {
    enableCountry(item.item);
    const url = (item.request as JsonObject | undefined)?.url as JsonObject | undefined;
    const query = Array.isArray(url?.query) ? (url.query as JsonObject[]) : [];
    for (const parameter of query) if (parameter.key === 'country') parameter.disabled = false;
  }
}

/** The collection as JSON, `baseUrl` set to `origin` (the placeholder occurs only there). */
export function withBaseUrl(collection: PostmanCollection, origin: string): string {
  return collection.json.replace(JSON.stringify(BASE_URL_PLACEHOLDER), JSON.stringify(origin));
}

// Scheme, host (a name, IPv4 or a bracketed IPv6) and port: what a request's own origin may be. Each
// part is a run of one character class: linear time.
const ORIGIN = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin to put in `baseUrl`: the request's, when it is a plain origin; else empty for the user to fill in. */
export function baseUrlFor(protocol: string, host: string): string {
  const origin = `${protocol}://${host}`;
  return ORIGIN.test(origin) ? origin : '';
}
