import type { Client } from '@elastic/elasticsearch';
import { initialPlaceState, toSearchDocument, type Observed, type PlaceState } from '@directory/domain';

export const SITE_ORIGIN = 'https://www.doctor-directory.example';

type PlaceInput = {
  id: string;
  name: string | null;
  country?: 'de' | 'es' | 'it' | 'pt' | 'fr' | 'gb' | 'mx';
  citySlug?: string;
  profileSlug?: string;
  city?: string | null;
  legalName?: string | null;
  primaryType?: string | null;
  specialties?: string[];
  phone?: string | null;
  phoneType?: 'mobile' | 'landline' | 'other' | null;
  whatsappEligible?: boolean;
  verified?: boolean;
  /** Publication flags (default: served). */
  published?: boolean;
  suppressed?: boolean;
  closed?: boolean;
  version?: number;
  /** Coordinates (default: central Berlin); null for a place without a location. */
  location?: { latitude: number; longitude: number } | null;
  postalCode?: string | null;
  /** Opening hours by source day label (default: Montag 08:00–12:00); null for none published. */
  workingHours?: Observed['workingHours'];
  /** API 1.3 patient attributes as crawled; each left out of the crawl unless given, as before API 1.3. */
  languages?: string[] | null;
  acceptingNewPatients?: boolean | null;
  wheelchairAccessible?: boolean | null;
  insurance?: string[] | null;
  /** When its public fields last changed (default: when it was crawled, FIXTURE_CRAWL_TIME). */
  updatedAt?: string;
  /** When a crawl last saw it (default FIXTURE_CRAWL_TIME). */
  observedAt?: string;
};

const ADDRESS_COUNTRY = { de: 'DE', es: 'ES', it: 'IT', pt: 'PT', fr: 'FR', gb: 'GB', mx: 'MX' } as const;

/** A PlaceState as the fold would produce it, built directly (the fold itself is the domain's concern). */
/** When every fixture place was crawled (and its public fields last changed). */
export const FIXTURE_CRAWL_TIME = '2026-01-01T00:00:00.000Z';

export function placeState(input: PlaceInput): PlaceState {
  const country = input.country ?? 'de';
  const observed: Observed = {
    name: input.name,
    legalName: input.legalName ?? null,
    address: {
      street: 'Hauptstraße 1',
      city: input.city === undefined ? 'Berlin' : input.city,
      state: null,
      postalCode: input.postalCode === undefined ? '10115' : input.postalCode,
      country: ADDRESS_COUNTRY[country],
    },
    location: input.location === undefined ? { latitude: 52.52, longitude: 13.405 } : input.location,
    phone: input.phone === undefined ? null : input.phone,
    phoneType: input.phoneType ?? null,
    additionalPhones: [],
    email: 'praxis@example.com',
    website: 'https://praxis.example.com/',
    googleMapsUrl: null,
    primaryType: input.primaryType ?? 'Arztpraxis',
    specialties: input.specialties ?? [],
    rating: 4.5,
    reviewCount: 12,
    whatsappEligible: input.whatsappEligible ?? false,
    workingHours:
      input.workingHours === undefined ? { Montag: [{ open: '08:00', close: '12:00' }] } : input.workingHours,
    // Internal crawl fields a crawler might add: the allowlist must drop them.
    crawlerNote: 'internal',
    ...patientAttributesOf(input),
  };
  return {
    ...initialPlaceState(input.id),
    version: input.version ?? 1,
    observed,
    observedAt: input.observedAt ?? FIXTURE_CRAWL_TIME,
    // As if crawled, published and verified at once: the provenance of a one-crawl stream.
    updatedAt: input.updatedAt ?? FIXTURE_CRAWL_TIME,
    verifiedAt: input.verified === true ? FIXTURE_CRAWL_TIME : null,
    publication: {
      country,
      citySlug: input.citySlug ?? 'berlin',
      profileSlug: input.profileSlug ?? input.id.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    },
    published: input.published ?? true,
    suppressedReason: input.suppressed ? 'owner request' : null,
    closed: input.closed ?? false,
    verified: input.verified ?? false,
  };
}

const PATIENT_ATTRIBUTES = [
  'languages',
  'acceptingNewPatients',
  'wheelchairAccessible',
  'insurance',
] as const;

/** The patient attributes the input gives, as a crawl carries them (the others absent). */
function patientAttributesOf(input: PlaceInput): Partial<Observed> {
  return Object.fromEntries(
    PATIENT_ATTRIBUTES.filter((name) => input[name] !== undefined).map((name) => [name, input[name]]),
  );
}

/** Indexes the documents the projection would write (served docs and tombstones), externally versioned. */
export async function indexPlaces(client: Client, alias: string, states: PlaceState[]): Promise<void> {
  if (states.length === 0) return;
  const operations = states.flatMap((state) => [
    {
      index: { _index: alias, _id: state.placeId, version: state.version, version_type: 'external' as const },
    },
    toSearchDocument(state, { siteOrigin: SITE_ORIGIN }),
  ]);
  const response = await client.bulk({ operations, refresh: true });
  if (response.errors) {
    const failed = response.items.find((item) => item.index?.error);
    throw new Error(`bulk indexing failed: ${JSON.stringify(failed?.index?.error)}`);
  }
}
