import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeEventSchema, type PlaceEvent } from '@directory/domain';
import { appendEvents, listDeadLetters, listProjectionFailures } from '@directory/event-store';
import { assertNoServerErrors, startProcess, waitForConvergence } from '@directory/testing';
import { sampleLines, startStorePipeline, type StorePipeline } from './store-pipeline.fixture.js';

const LAGGING_PLACES = 1_500;
const POISON_PLACE = '0-poison';

function crawledEvent(placeId: string, name: string): unknown {
  return {
    eventId: `${placeId}-crawl-1`,
    placeId,
    type: 'place.crawled',
    occurredAt: '2026-01-01T10:00:00Z',
    schemaVersion: 1,
    payload: {
      observed: {
        name,
        legalName: null,
        address: { street: 'Hauptstraße 1', city: 'Berlin', state: null, postalCode: '10115', country: 'DE' },
        location: { latitude: 52.52, longitude: 13.405 },
        phone: null,
        phoneType: null,
        additionalPhones: [],
        email: null,
        website: null,
        googleMapsUrl: null,
        primaryType: 'Arztpraxis',
        specialties: [],
        rating: null,
        reviewCount: null,
        whatsappEligible: false,
        workingHours: null,
      },
      crawl: {
        sourceUrl: 'https://source.example/1',
        crawlId: 'crawl-1',
        httpStatus: 200,
        fetchedAt: '2026-01-01T10:00:00Z',
        durationMs: 100,
        contentHash: 'abc',
      },
    },
  };
}

function publishedEvent(placeId: string): PlaceEvent {
  return placeEventSchema.parse({
    eventId: `${placeId}-published`,
    placeId,
    type: 'place.published',
    occurredAt: '2026-01-01T11:00:00Z',
    schemaVersion: 1,
    payload: { country: 'de', citySlug: 'berlin', profileSlug: placeId },
  });
}

/**
 * Places whose events were stored but never projected (their jobs were lost), and among them, sorting
 * first, one stored before the schema capped slugs: a 40,000-character profile slug, over
 * Elasticsearch's 32,766-byte keyword limit (`profileSlug`). (A long name no longer poisons: the sort
 * key keeps only its first 200 code points.)
 */
function laggingStore(): PlaceEvent[] {
  const published = publishedEvent(POISON_PLACE);
  const events: PlaceEvent[] = [
    placeEventSchema.parse(crawledEvent(POISON_PLACE, 'Praxis Poison')),
    { ...published, payload: { ...published.payload, profileSlug: 'x'.repeat(40_000) } } as PlaceEvent,
  ];
  for (let index = 0; index < LAGGING_PLACES; index += 1) {
    const placeId = `lag-${String(index).padStart(4, '0')}`;
    events.push(placeEventSchema.parse(crawledEvent(placeId, `Praxis ${index}`)), publishedEvent(placeId));
  }
  return events;
}

describe('fault: a poison record among 1,500 lagging places', () => {
  let pipeline: StorePipeline;
  const storedDirectly = laggingStore();
  // A fresh ingest alongside, with one line whose name is over today's limit: a dead letter, not a poison.
  const overLong = JSON.stringify(crawledEvent('too-long', 'y'.repeat(1_001)));
  const lines = [...sampleLines(2_000, 31), overLong];

  beforeAll(async () => {
    pipeline = await startStorePipeline('poison-record', { INGEST_BATCH_SIZE: '250' });
  });
  afterAll(async () => {
    await pipeline.cleanup();
  });

  it('projects everything else, sets the poison place aside visibly, and the sweeper keeps going', async () => {
    await appendEvents(pipeline.database.db, storedDirectly);
    const load = await pipeline.startSearchLoad();
    const worker = await pipeline.startWorker();
    const ingest = await pipeline.ingest(lines, ['--wait', '--timeout', '120']);
    expect(await ingest.exited, ingest.output()).toBe(0);

    await waitForConvergence(
      { ...pipeline.convergenceInput(lines), storedDirectly, unprojectable: [POISON_PLACE] },
      120_000,
    );

    const failures = await listProjectionFailures(pipeline.database.db);
    expect(failures.map((failure) => [failure.placeId, failure.status])).toEqual([[POISON_PLACE, 400]]);
    expect(failures[0]?.reason).toMatch(/profileSlug/);
    expect(worker.output()).toMatch(/recorded as projection failures/);

    const letters = await listDeadLetters(pipeline.database.db, { limit: 10_000 });
    const tooLong = letters.find((letter) => letter.placeId === 'too-long');
    expect(tooLong?.reason).toMatch(/payload\.observed\.name: Expected at most 1000 characters/);

    // What the operator sees.
    const listing = startProcess('packages/operator/src/dead-letters.cli.ts', ['projections'], pipeline.env);
    expect(await listing.exited).toBe(0);
    expect(listing.output()).toContain(`${POISON_PLACE}\t`);
    expect(listing.output()).toMatch(/1 projection failures/);
    const tally = await load.stop();
    assertNoServerErrors(tally);
    expect(tally.byStatus.get(200)).toBeGreaterThan(0);
    expect(await worker.stop('SIGTERM')).toBe(0);
  });
});
