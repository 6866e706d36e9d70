import { problemFor } from '@directory/http-server';

type Problem = ReturnType<typeof problemFor>;

/**
 * The OpenAPI document's response examples. The success bodies are real answers over the fixed test
 * dataset (its `de-mueller` record, as the golden public responses hold it); the problems are the ones
 * the API writes, word for word. services/api/test/openapi-examples.unit.spec.ts checks each against
 * the schema it illustrates.
 */

const DOCTOR = {
  id: 'de-mueller',
  name: 'Praxis Dr. Müller',
  legalName: null,
  address: { street: 'Hauptstraße 1', city: 'Berlin', state: null, postalCode: '10115', country: 'DE' },
  location: { latitude: 52.52, longitude: 13.405 },
  phone: '+4915123456789',
  phoneType: 'mobile',
  additionalPhones: [],
  email: 'praxis@example.com',
  website: 'https://praxis.example.com/',
  googleMapsUrl: null,
  primaryType: 'Arztpraxis',
  specialties: ['Allgemeinmedizin', 'Sportmedizin'],
  rating: 4.5,
  reviewCount: 12,
  whatsappEligible: true,
  verified: true,
  workingHours: { Montag: [{ open: '08:00', close: '12:00' }] },
  profileUrl: 'https://www.doctor-directory.example/en/doctors/de/berlin/praxis-dr-mueller',
};

const NEXT_CURSOR =
  'eyJ2IjoxLCJhIjpbInByYXhpcyBudW1tZXIgMTMiLCJkZS1jcm93ZC0wMjEiXSwiZiI6Im5oVnFuTm5lQ2tRc3pZdERCM2U2bXRGcm04NXVDekR0dmU0anRfVTVwQmcifQ.WSQhZTT4hFzvM5vfUyduVyo3VobLGtFhJtDhIOy3Mxw';

/** The 200 body of each operation, by path. */
export const SUCCESS_EXAMPLES: Record<string, unknown> = {
  '/api/v1/key': {
    key: {
      id: '0b9f6c1e-3f4a-4c2b-9a51-6d2f1e8c7a40',
      name: 'my server',
      prefix: 'dk_live_0Xb4',
      creationTime: '2026-01-01T10:00:00.000Z',
    },
  },
  // With `facets=specialty,verified` (API 1.4), to show their shape; without it there is no `facets`.
  '/api/v1/doctors': {
    doctors: [DOCTOR],
    page: { count: 1, hasMore: true, nextCursor: NEXT_CURSOR },
    facets: {
      specialty: [
        { value: 'general-practice', count: 5210, label: 'General practice' },
        { value: 'dentistry', count: 2980, label: 'Dentistry' },
      ],
      verified: [
        { value: 'false', count: 6120 },
        { value: 'true', count: 2070 },
      ],
    },
  },
  '/api/v1/doctors:batchGet': { doctors: [DOCTOR], missing: ['de-unknown'] },
  '/api/v1/doctors/{doctorId}': { doctor: DOCTOR },
  // One line of an export: a record (the trailer, its last line, is documented as ExportTrailer).
  '/api/v1/exports/{country}': DOCTOR,
  '/api/v1/changes': {
    changes: [
      { id: 'de-mueller', change: 'upsert', doctor: DOCTOR },
      { id: 'de-suppressed', change: 'delete', doctor: null },
    ],
    page: { count: 2, hasMore: false, nextCursor: NEXT_CURSOR },
  },
  '/api/v1/cities': {
    cities: [
      { slug: 'berlin', name: 'Berlin', count: 3120 },
      { slug: 'muenchen', name: 'München', count: 1711 },
    ],
  },
  '/api/v1/specialties': {
    specialties: [
      { code: 'general-practice', label: 'Allgemeinmedizin', count: 5210 },
      { code: 'dentistry', label: 'Zahnmedizin', count: 2980 },
    ],
  },
  '/api/v1/facets/{name}': {
    values: [
      { value: 'muenchen', count: 1711, label: 'München' },
      { value: 'muenster', count: 402, label: 'Münster' },
    ],
  },
  '/api/v1/datasets': {
    asOf: '2026-11-29T10:15:00.000Z',
    windowDays: 90,
    windowStart: '2026-08-31T10:15:00.000Z',
    datasets: [
      {
        country: 'de',
        records: 182340,
        lastObservedAt: '2026-11-29T09:58:12.000Z',
        observedInWindow: 177443,
        coverage: 0.9731,
      },
    ],
  },
  '/api/v1/suggest': {
    suggestions: [
      { type: 'specialty', code: 'general-practice', label: 'General practice' },
      { type: 'city', citySlug: 'muenchen', name: 'München' },
      { type: 'doctor', id: 'de-mueller', name: 'Praxis Dr. Müller', city: 'Berlin' },
    ],
  },
};

/**
 * Further named examples of a path's 200, after its main one (SUCCESS_EXAMPLES, which comes first and
 * is the one tools that show a single example take).
 */
export const MORE_SUCCESS_EXAMPLES: Record<string, Record<string, { summary: string; value: unknown }>> = {
  '/api/v1/doctors': {
    zeroResults: {
      summary: 'Nothing found, with `suggestions=true` (API 1.4): what finds records instead',
      value: {
        doctors: [],
        page: { count: 0, hasMore: false, nextCursor: null },
        suggestions: [
          { kind: 'query', q: 'zahnarzt', resultCount: 412 },
          { kind: 'radius', radius: 10000, resultCount: 6 },
          { kind: 'city', city: 'potsdam', name: 'Potsdam', resultCount: 23 },
        ],
      },
    },
  },
};

const KEY_IN_QUERY = problemFor(
  'keyInQuery',
  'API keys must never be sent in the URL or query string: send the key in the X-API-Key header (or Authorization: Bearer). Treat the key you sent as leaked and replace it.',
  [
    {
      parameter: 'api_key',
      reason:
        'API keys must never be sent in the URL; send the key in the X-API-Key header (or Authorization: Bearer)',
    },
  ],
);

/** A 400 for a bad parameter of each operation (every operation also answers KEY_IN_QUERY). */
const INVALID_PARAMETER: Record<string, Problem> = {
  '/api/v1/doctors': problemFor('invalidParameter', 'One or more query parameters are invalid; see errors.', [
    { parameter: 'country', reason: 'is required; must be one of de, es, fr, gb, it, mx, pt' },
  ]),
  '/api/v1/doctors:batchGet': problemFor(
    'invalidParameter',
    'One or more entries of ids are invalid; see errors.',
    [
      {
        parameter: 'ids',
        reason:
          'entry 2: must be a doctor id from a search response (1-128 characters A-Z a-z 0-9 _ -) or a complete profile URL of this website, URL-encoded',
      },
    ],
  ),
  '/api/v1/doctors/{doctorId}': problemFor('invalidParameter', 'The doctorId is invalid.', [
    {
      parameter: 'doctorId',
      reason:
        'must be a doctor id from a search response (1-128 characters A-Z a-z 0-9 _ -) or a complete profile URL of this website, URL-encoded',
    },
  ]),
  '/api/v1/key': problemFor('invalidParameter', 'This operation takes no query parameters.', [
    { parameter: 'limit', reason: 'is not a known parameter' },
  ]),
};

/** The problem examples of an error status (a 400's depend on the operation's path). */
export function problemExamples(status: string, path: string): Record<string, Problem> {
  switch (status) {
    case '400': {
      const invalid = INVALID_PARAMETER[path];
      return { ...(invalid ? { invalidParameter: invalid } : {}), keyInQuery: KEY_IN_QUERY };
    }
    case '401':
      return {
        unauthorized: problemFor(
          'unauthorized',
          'A valid, active API key is required in the X-API-Key header (or Authorization: Bearer). The key is missing, malformed, unknown or revoked; do not retry with the same key.',
        ),
      };
    case '404':
      return { notFound: problemFor('notFound', 'No current published record has this id.') };
    case '429':
      return {
        rateLimited: problemFor(
          'rateLimited',
          'This API key has used its request quota for the current window; retry after 17 seconds (Retry-After).',
        ),
        accountCeiling: problemFor(
          'rateLimited',
          'The account this API key belongs to has used its request ceiling across all its keys for the current window; retry after 17 seconds (Retry-After).',
        ),
      };
    case '431':
      return {
        headersTooLarge: {
          type: 'about:blank',
          title: 'Request header fields too large',
          status: 431,
          detail:
            'The request line and headers are too large; shorten the URL (send fewer ids per request) or the headers.',
          errors: [],
        },
      };
    case '500':
      return { internal: problemFor('internal', 'The request could not be completed.') };
    case '503':
      return { unavailable: problemFor('unavailable', 'Search is temporarily unavailable; retry later.') };
    default:
      return {
        requestTimeout: {
          type: 'about:blank',
          title: 'Request timeout',
          status: 408,
          detail: 'The request could not be processed.',
          errors: [],
        },
      };
  }
}
