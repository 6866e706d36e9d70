import { KEY_IN_QUERY_REASON, type ParameterError } from '../src/requests/query-parameters.js';
import type { Observed, PlaceEvent, PlaceEventType, Publication } from '../src/events/events.js';
import { foldPlace } from '../src/places/place-fold.js';
import type { PlaceState, StoredPlaceEvent } from '../src/events/place-state.js';

export const SITE_ORIGIN = 'https://site.example';
export const PLACE_ID = 'place_1';

export function observed(overrides: Partial<Observed> = {}): Observed {
  return {
    name: 'Praxis Dr. Müller',
    legalName: 'Dr. med. Anna Müller',
    address: { street: 'Hauptstraße 1', city: 'Berlin', state: 'Berlin', postalCode: '10115', country: 'DE' },
    location: { latitude: 52.52, longitude: 13.405 },
    phone: '0151 23456789',
    phoneType: 'mobile',
    additionalPhones: [{ number: '030 1234567', type: 'landline' }],
    email: 'praxis@example.de',
    website: 'https://praxis-mueller.example.de/',
    googleMapsUrl: 'https://maps.google.com/?cid=123',
    primaryType: 'Allgemeinmedizin',
    specialties: ['Hausarzt', 'Innere Medizin'],
    rating: 4.6,
    reviewCount: 87,
    whatsappEligible: true,
    workingHours: { Montag: [{ open: '08:00', close: '12:00' }], Dienstag: [] },
    ...overrides,
  };
}

export const PUBLICATION: Publication = {
  country: 'de',
  citySlug: 'berlin',
  profileSlug: 'praxis-dr-mueller',
};

type PayloadOf<Type extends PlaceEventType> = Extract<PlaceEvent, { type: Type }>['payload'];

export function makeEvent<Type extends PlaceEventType>(
  type: Type,
  payload: PayloadOf<Type>,
  fields: { eventId: string; occurredAt: string; position: number; placeId?: string },
): StoredPlaceEvent {
  // The cast joins a generic type with its payload, which TypeScript cannot correlate on its own.
  return {
    eventId: fields.eventId,
    placeId: fields.placeId ?? PLACE_ID,
    type,
    occurredAt: fields.occurredAt,
    schemaVersion: 1,
    payload,
    position: fields.position,
  } as StoredPlaceEvent;
}

export function crawlMetadata() {
  return {
    sourceUrl: 'https://crawler.internal/source/1',
    crawlId: 'crawl-1',
    httpStatus: 200,
    fetchedAt: '2024-05-01T10:00:00Z',
    durationMs: 120,
    contentHash: 'sha256:abc',
  };
}

/** A published, crawled place: served unless the overrides say otherwise. */
export function servedState(
  observedOverrides: Partial<Observed> = {},
  publication = PUBLICATION,
): PlaceState {
  return foldPlace(PLACE_ID, [
    makeEvent(
      'place.crawled',
      { observed: observed(observedOverrides), crawl: crawlMetadata() },
      { eventId: 'e1', occurredAt: '2024-05-01T10:00:00Z', position: 1 },
    ),
    makeEvent('place.published', publication, {
      eventId: 'e2',
      occurredAt: '2024-05-01T11:00:00Z',
      position: 2,
    }),
  ]);
}

/** The kind of a parameter error, read from its reason as a client would (errors carry no code). */
export function kindOf(error: ParameterError | undefined): string {
  const reason = error?.reason ?? '';
  if (reason === KEY_IN_QUERY_REASON) return 'key_in_query';
  if (reason.startsWith('is not a known parameter')) return 'unknown_parameter';
  if (reason === 'must be given once') return 'repeated_parameter';
  if (reason.startsWith('is required')) return 'missing_parameter';
  return 'invalid_value';
}
