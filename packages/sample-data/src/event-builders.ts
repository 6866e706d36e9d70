import type { SamplePlace } from './place.js';
import { BASE32, type Prng } from './prng.js';

/** An event as producers send it: plain JSON, not yet validated (it may be deliberately broken). */
export type RawEvent = { [key: string]: unknown };

export type EventHeader = { eventId: string; placeId: string; occurredAt: string };

const SUPPRESSION_REASONS = [
  'Practitioner requested removal',
  'Duplicate listing',
  'Legal complaint under review',
  'Data quality: address could not be verified',
];
const UNSUPPRESSION_REASONS = ['Review completed', 'Removal request withdrawn', 'Address verified by phone'];

export function envelope(header: EventHeader, type: string, payload: unknown): RawEvent {
  return {
    eventId: header.eventId,
    placeId: header.placeId,
    type,
    occurredAt: header.occurredAt,
    schemaVersion: 1,
    payload,
  };
}

export function crawledEvent(place: SamplePlace, header: EventHeader, prng: Prng): RawEvent {
  const occurredMs = Date.parse(header.occurredAt);
  // Internal keys a crawler adds over time; the projection's allowlist must drop them.
  const observed = prng.chance(0.3)
    ? {
        ...place.observed,
        internalScore: Math.round(prng.next() * 1000) / 1000,
        rawHtmlHash: `sha1:${prng.hex(40)}`,
      }
    : place.observed;
  const sourceUrl = place.observed.website ?? `https://maps.google.com/?cid=${place.googleCid}`;
  const crawl: RawEvent = {
    sourceUrl,
    crawlId: `cr_${header.occurredAt.slice(0, 10).replace(/-/g, '')}_${prng.chars(BASE32, 8)}`,
    httpStatus: prng.chance(0.95) ? 200 : 304,
    fetchedAt: new Date(occurredMs - prng.int(200, 60_000)).toISOString(),
    durationMs: prng.int(80, 4_000),
    contentHash: `sha256:${prng.hex(64)}`,
  };
  if (prng.chance(0.2)) {
    crawl['userAgent'] = 'DirectoryCrawler/2.3 (+https://crawler.invalid/about)';
    crawl['proxyRegion'] = prng.pick(['eu-west-1', 'eu-central-1', 'us-east-1']);
  }
  return envelope(header, 'place.crawled', { observed, crawl });
}

export function publishedEvent(place: SamplePlace, header: EventHeader): RawEvent {
  return envelope(header, 'place.published', { ...place.publication });
}

export function reasonEvent(
  header: EventHeader,
  type: 'place.suppressed' | 'place.unsuppressed',
  prng: Prng,
): RawEvent {
  const reason = prng.pick(type === 'place.suppressed' ? SUPPRESSION_REASONS : UNSUPPRESSION_REASONS);
  return envelope(header, type, { reason });
}

export function emptyEvent(
  header: EventHeader,
  type: 'place.unpublished' | 'place.closed' | 'place.reopened' | 'place.verified' | 'place.unverified',
): RawEvent {
  return envelope(header, type, {});
}
