import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generateEvents } from '@directory/sample-data';
import { SITE_ORIGIN, indexPlaces, placeState, projectRawEvents } from '@directory/testing';
import { toSearchDocument, type PlaceState, type SearchDocument } from '@directory/domain';
import { createApiHarness, type ApiHarness, type HarnessAppOptions } from './api-harness.js';

/**
 * What the FHIR specs share: an API over a sample dataset (the sample generator's events folded and
 * indexed with their stream versions, as the projector writes them) plus a few fixture places with
 * every patient attribute, a live key, and the served documents for brute-force answers in memory.
 */

export type ServedDocument = SearchDocument & { version: number };

export type FhirApi = {
  harness: ApiHarness;
  app: FastifyInstance;
  secret: string;
  /** Every served record indexed, with its stream version. */
  served: ServedDocument[];
  /** GET with the key (and any other headers). */
  get: (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** GET with the key, expecting 200: the parsed body. */
  getOk: <Body = Record<string, unknown>>(url: string) => Promise<Body>;
  close: () => Promise<void>;
};

/** Fixture places with every attribute the mapping reads, in Madrid and Berlin. */
export const FIXTURE_PLACES: PlaceState[] = [
  placeState({
    id: 'fx_madrid_dent',
    name: 'Clínica Dental Sol',
    legalName: 'Sol Odontología S.L.',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    primaryType: 'Dentista',
    specialties: ['Ortodoncia'],
    location: { latitude: 40.4168, longitude: -3.7038 },
    workingHours: { Lunes: [{ open: '09:00', close: '14:00' }], Sábado: [{ open: '00:00', close: '24:00' }] },
    languages: ['es', 'en'],
    acceptingNewPatients: true,
    wheelchairAccessible: true,
    insurance: ['sns'],
    version: 4,
    updatedAt: '2026-10-01T08:30:00.000Z',
  }),
  placeState({
    id: 'fx_madrid_full',
    name: 'Dentistas Retiro',
    country: 'es',
    city: 'Madrid',
    citySlug: 'madrid',
    primaryType: 'Dentista',
    location: { latitude: 40.4153, longitude: -3.6845 },
    acceptingNewPatients: false,
    version: 2,
    updatedAt: '2026-09-01T00:00:00.000Z',
  }),
  placeState({
    id: 'fx_berlin_gp',
    name: 'Hausarztpraxis Mitte',
    primaryType: 'Hausarzt',
    languages: ['de'],
    wheelchairAccessible: false,
    version: 9,
  }),
];

export async function createFhirApi(
  label: string,
  options: { sampleEvents?: number; app?: HarnessAppOptions } = {},
): Promise<FhirApi> {
  const harness = await createApiHarness(label);
  const { rows } = projectRawEvents(
    generateEvents({ count: options.sampleEvents ?? 600, seed: 17 }),
    SITE_ORIGIN,
  );
  const operations = [...rows.values()].flatMap(({ placeId, stateVersion, document }) => [
    {
      index: {
        _index: harness.alias,
        _id: placeId,
        version: stateVersion,
        version_type: 'external' as const,
      },
    },
    document,
  ]);
  if (operations.length > 0) {
    const response = await harness.search.client.bulk({ operations, refresh: true });
    if (response.errors) throw new Error('bulk indexing of the sample data failed');
  }
  await indexPlaces(harness.search.client, harness.alias, FIXTURE_PLACES);
  const served: ServedDocument[] = [];
  for (const { document, stateVersion } of rows.values()) {
    if (document.served) served.push({ ...document, version: stateVersion });
  }
  for (const state of FIXTURE_PLACES) {
    const document = toSearchDocument(state, { siteOrigin: SITE_ORIGIN });
    if (document.served) served.push({ ...document, version: state.version });
  }
  const app = await harness.newApp(options.app);
  const { secret } = await harness.createKey();
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { 'x-api-key': secret, ...headers } });
  return {
    harness,
    app,
    secret,
    served,
    get,
    getOk: async <Body>(url: string) => {
      const response = await get(url);
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json<Body>();
    },
    close: () => harness.close(),
  };
}

export type Bundle = {
  resourceType: 'Bundle';
  type: string;
  total?: number;
  link: Array<{ relation: string; url: string }>;
  entry?: Array<{
    fullUrl: string;
    resource: { resourceType: string; id: string; [key: string]: unknown };
    search: { mode: string };
  }>;
};

/** The path and query of a Bundle link (the specs inject requests, so the host is dropped). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Every page of a search, following Bundle.link next: the bundles in order. */
export async function allPages(api: FhirApi, url: string, maxPages = 200): Promise<Bundle[]> {
  const bundles: Bundle[] = [];
  let next: string | undefined = url;
  while (next !== undefined) {
    if (bundles.length === maxPages) throw new Error(`more than ${maxPages} pages: ${url}`);
    const bundle: Bundle = await api.getOk<Bundle>(next);
    bundles.push(bundle);
    const link = bundle.link.find((candidate) => candidate.relation === 'next');
    next = link === undefined ? undefined : pathOf(link.url);
  }
  return bundles;
}
