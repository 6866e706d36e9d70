import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeadLetters } from '@directory/event-store';
import { assertNoServerErrors, waitForConvergence } from '@directory/testing';
import { sampleLines, startStorePipeline, type StorePipeline } from './store-pipeline.fixture.js';

describe('fault: lines carrying \\u0000, and a runaway line, in the middle of a batch', () => {
  let pipeline: StorePipeline;
  const base = sampleLines(600, 41);
  const valid = JSON.parse(base.find((line) => line.includes('"place.crawled"')) ?? '{}') as {
    eventId: string;
    payload: { observed: { name: string } };
  };
  // An invalid event with a NUL escape (jsonb refused it, and the batch's other letters with it); a
  // line that is not JSON with a raw NUL byte; a valid event whose name carries a NUL escape.
  const nulEscape = JSON.stringify({
    eventId: 'nul\u0000event',
    placeId: 'nul-place',
    type: 'place.crawled',
  });
  const nulByte = 'not json \u0000 at all';
  const validWithNul = JSON.stringify({
    ...valid,
    eventId: `${valid.eventId}-nul`,
    payload: { ...valid.payload, observed: { ...valid.payload.observed, name: 'Praxis \u0000 Null' } },
  });
  // And a runaway line (a valid event with a huge extra key): rejected whole, its first million characters
  // kept in its dead letter.
  const runaway = JSON.stringify({
    ...valid,
    eventId: `${valid.eventId}-runaway`,
    blob: 'z'.repeat(1_200_000),
  });
  const lines = [
    runaway,
    ...base.slice(0, 100),
    nulEscape,
    ...base.slice(100, 300),
    nulByte,
    validWithNul,
    ...base.slice(300),
  ];

  beforeAll(async () => {
    pipeline = await startStorePipeline('nul-line', { INGEST_BATCH_SIZE: '1000' });
  });
  afterAll(async () => {
    await pipeline.cleanup();
  });

  it('stores the NUL lines as dead letters exactly as sent, and the rest of the batch lands', async () => {
    const load = await pipeline.startSearchLoad();
    const worker = await pipeline.startWorker();
    const ingest = await pipeline.ingest(lines, ['--wait', '--timeout', '120']);
    expect(await ingest.exited, ingest.output()).toBe(0);

    await waitForConvergence(pipeline.convergenceInput(lines), 60_000);
    const letters = await listDeadLetters(pipeline.database.db, { limit: 10_000 });
    expect(letters.map((letter) => letter.raw)).toEqual(
      expect.arrayContaining([JSON.parse(nulEscape), nulByte]),
    );
    // The valid-looking event with a NUL in its name is bad data too (the store's text columns refuse it).
    const nulName = letters.find((letter) => letter.eventId === `${valid.eventId}-nul`);
    expect(nulName?.reason).toMatch(/payload\.observed\.name: Expected text without NUL/);
    const runawayLetter = letters.find((letter) => letter.reason.startsWith('line of'));
    expect(runawayLetter?.reason).toBe(
      `line of ${runaway.length} characters is over the limit of 1000000 (the first 1000000 are kept)`,
    );
    expect(worker.output()).not.toMatch(/batch failed/);
    const tally = await load.stop();
    assertNoServerErrors(tally);
    expect(tally.byStatus.get(200)).toBeGreaterThan(0);
    expect(await worker.stop('SIGTERM')).toBe(0);
  });
});
