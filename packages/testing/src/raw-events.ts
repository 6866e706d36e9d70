/** Hand-made raw events for ingestion and operator tests (the sample-data generator is tested on its own). */
export function crawled(
  placeId: string,
  n: number,
  occurredAt: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    eventId: `${placeId}-crawl-${n}`,
    placeId,
    type: 'place.crawled',
    occurredAt,
    schemaVersion: 1,
    payload: {
      observed: {
        name: `Praxis ${placeId}`,
        legalName: null,
        address: {
          street: 'Hauptstraße 1',
          city: 'Berlin',
          state: 'Berlin',
          postalCode: '10115',
          country: 'DE',
        },
        location: { latitude: 52.52, longitude: 13.405 },
        phone: '+49 151 23456789',
        phoneType: 'mobile',
        additionalPhones: [],
        email: 'praxis@example.de',
        website: 'https://www.praxis.de',
        googleMapsUrl: null,
        primaryType: 'Zahnarzt',
        specialties: ['Implantologie'],
        rating: 4.5,
        reviewCount: 10,
        whatsappEligible: true,
        workingHours: null,
        internalScore: 0.93,
        ...overrides,
      },
      crawl: {
        sourceUrl: 'https://source.example/listing/1',
        crawlId: 'crawl-1',
        httpStatus: 200,
        fetchedAt: occurredAt,
        durationMs: 120,
        contentHash: 'abc',
      },
    },
  };
}

export function published(placeId: string, occurredAt: string, country = 'de') {
  return {
    eventId: `${placeId}-published`,
    placeId,
    type: 'place.published',
    occurredAt,
    schemaVersion: 1,
    payload: { country, citySlug: 'berlin', profileSlug: `praxis-${placeId.toLowerCase()}` },
  };
}

export function lifecycle(
  placeId: string,
  type: string,
  occurredAt: string,
  payload: Record<string, unknown> = {},
) {
  return {
    eventId: `${placeId}-${type}-${occurredAt}`,
    placeId,
    type,
    occurredAt,
    schemaVersion: 1,
    payload,
  };
}
