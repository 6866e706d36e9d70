import { crawledEvent, envelope, publishedEvent, type EventHeader, type RawEvent } from './event-builders.js';
import type { SamplePlace } from './place.js';
import type { Prng } from './prng.js';

/** The ways producers get events wrong; each one must be rejected by `parsePlaceEvent`. */
export const INVALID_KINDS = [
  'rating-out-of-range',
  'missing-place-id',
  'bad-slug',
  'unknown-type',
  'malformed-date',
  'wrong-field-types',
  'unsupported-schema-version',
  'missing-reason',
  'unknown-country',
] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];

const MALFORMED_DATES = ['31/12/2026 10:00', 'yesterday', '2026-02-30 25:61', ''];
const BAD_SLUGS = ['Bad Slug!', 'münchen-zentrum', '-leading-dash', 'double--dash', 'UPPER'];

// Places without live data never get publication events, not even broken ones.
const CRAWL_ONLY_KINDS = INVALID_KINDS.filter((kind) => kind !== 'bad-slug' && kind !== 'unknown-country');

export function invalidEvent(place: SamplePlace, live: boolean, header: EventHeader, prng: Prng): RawEvent {
  const kind = prng.pick(live ? INVALID_KINDS : CRAWL_ONLY_KINDS);
  switch (kind) {
    case 'rating-out-of-range': {
      const event = crawledEvent(place, header, prng);
      return { ...event, payload: { ...payloadOf(event), observed: { ...place.observed, rating: 7 } } };
    }
    case 'missing-place-id': {
      const { placeId: _dropped, ...rest } = live
        ? publishedEvent(place, header)
        : crawledEvent(place, header, prng);
      return rest;
    }
    case 'bad-slug':
      return envelope(header, 'place.published', { ...place.publication, citySlug: prng.pick(BAD_SLUGS) });
    case 'unknown-type':
      return envelope(header, prng.pick(['place.teleported', 'place.deleted', 'PLACE.PUBLISHED']), {});
    case 'malformed-date':
      return envelope({ ...header, occurredAt: prng.pick(MALFORMED_DATES) }, 'place.verified', {});
    case 'wrong-field-types': {
      const event = crawledEvent(place, header, prng);
      const observed = {
        ...place.observed,
        reviewCount: String(place.observed.reviewCount ?? 12),
        whatsappEligible: 'yes',
      };
      return { ...event, payload: { ...payloadOf(event), observed } };
    }
    case 'unsupported-schema-version':
      return { ...envelope(header, 'place.closed', {}), schemaVersion: prng.pick([2, '1', null]) };
    case 'missing-reason':
      return envelope(header, 'place.suppressed', prng.chance(0.5) ? {} : { reason: '' });
    case 'unknown-country':
      return envelope(header, 'place.published', {
        ...place.publication,
        country: prng.pick(['DE', 'xx', 'us']),
      });
  }
}

function payloadOf(event: RawEvent): RawEvent {
  const payload = event['payload'];
  return typeof payload === 'object' && payload !== null ? (payload as RawEvent) : {};
}
