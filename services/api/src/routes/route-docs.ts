import { problemSchema } from '@directory/http-server';

export type ErrorStatus = 400 | 401 | 404 | 429 | 503;

/** Response descriptions for the OpenAPI document, by status. */
export const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  200: 'Success',
  304: 'Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit.',
  400: 'A query or path parameter is invalid; every bad parameter is named in `errors`',
  401: 'The API key is missing, malformed, unknown or revoked. Do not retry with the same key.',
  404: 'No current published record has this id (unknown, suppressed, closed or no longer published)',
  429: "The key's request window is exhausted; wait `Retry-After` seconds before retrying",
  431: 'The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers',
  500: 'An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it.',
  503: 'Temporarily unavailable (search cluster or rate-limit store); retry later',
  default:
    'Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank`',
};

/** Problem response schemas for a route: the serializer and the OpenAPI document both use them. */
export function errorResponses(statuses: ErrorStatus[]): Record<number, typeof problemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, problemSchema]));
}

/**
 * The OpenAPI document's tags and their descriptions, in the order the routes are registered. The
 * document declares every one, and routes name theirs through `routeTags`, so a route cannot use a tag
 * the document leaves undeclared.
 */
const API_TAGS = {
  key: 'The API key in use',
  doctors: 'Published doctor and clinic records',
  changes: 'Every change to the served records of a dataset, to keep a mirror in sync',
  exports: 'Every served record of a dataset in one stream, to start a mirror',
  cities: 'The city slugs that search accepts, with names and record counts',
  specialties: 'The specialty codes that search accepts, with labels and record counts',
  suggest: 'Typeahead over specialties, cities and doctor names',
  facets: 'The values of a search facet in a dataset, with record counts',
  datasets: "Each dataset's served records and how many a crawl observed in the last 90 days",
  webhooks: 'What the API sends: signed deliveries of changes to the endpoints an account registers',
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** The document's tag declarations: one per tag in API_TAGS. */
export const TAG_DECLARATIONS = Object.entries(API_TAGS).map(([name, description]) => ({
  name,
  description,
}));

/** The `tags` of a route schema: only tags the document declares. */
export function routeTags(...tags: ApiTag[]): ApiTag[] {
  return tags;
}

export const API_KEY_SECURITY: Array<Record<string, string[]>> = [{ ApiKey: [] }, { Bearer: [] }];
