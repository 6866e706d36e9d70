import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBatch, type IngestItem, type ProjectorDependencies } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  assertNoServerErrors,
  checkConvergence,
  createResponseTally,
  createTestDatabase,
  createTestSearch,
  recordResponse,
  SITE_ORIGIN,
  type TestDatabase,
} from '@directory/testing';

/** Lines as the producer would read them: generated events (invalid ones included) plus a broken line. */
function sampleLines(): string[] {
  const lines = [...generateEvents({ count: 400, seed: 5 })].map((event) => JSON.stringify(event));
  lines.splice(17, 0, '{"eventId": "cut-off');
  return lines;
}

/** The producer's split of a line into an item (bad JSON is flagged; the worker validates the rest). */
function itemOf(line: string, number: number): IngestItem {
  const source = `checks.ndjson:${number}`;
  try {
    return { raw: JSON.parse(line) as unknown, source };
  } catch {
    return { raw: line, source, rejection: 'not valid JSON' };
  }
}

describe('fault convergence checks', () => {
  let database: TestDatabase;
  const search = createTestSearch('fault-checks');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;
  const lines = sampleLines();

  beforeAll(async () => {
    database = await createTestDatabase('fault-checks');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN };
    await ingestBatch(
      deps,
      lines.map((line, index) => itemOf(line, index + 1)),
    );
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  const input = () => ({
    db: database.db,
    search: { client: search.client, alias },
    siteOrigin: SITE_ORIGIN,
    lines,
  });

  it('finds nothing wrong after a clean ingest', async () => {
    expect(await checkConvergence(input())).toEqual([]);
  });

  it('reports a missing event, a lost dead letter and a stale index document', async () => {
    const [event] = await database.db.selectFrom('events').select('event_id').limit(1).execute();
    const [letter] = await database.db.selectFrom('dead_letters').select('id').limit(1).execute();
    const [served] = await database.db
      .selectFrom('places')
      .select('place_id')
      .where('served', '=', true)
      .limit(1)
      .execute();
    if (!event || !letter || !served) throw new Error('fixture has no events, letters or served places');
    await database.db.deleteFrom('events').where('event_id', '=', event.event_id).execute();
    await database.db.deleteFrom('dead_letters').where('id', '=', letter.id).execute();
    await search.client.delete({ index: alias, id: served.place_id, refresh: true });

    const problems = await checkConvergence(input());
    expect(problems).toContainEqual(`event ${event.event_id} of the valid input was not stored`);
    expect(problems.some((problem) => problem.startsWith('invalid line not in dead letters'))).toBe(true);
    expect(problems).toContainEqual(`place ${served.place_id} is in the store but not in the index`);
  });

  it('accepts 503 problem responses and rejects a 500', async () => {
    const tally = createResponseTally();
    const problem = { status: 503, headers: { 'content-type': 'application/problem+json' } };
    await recordResponse(tally, () => Promise.resolve(new Response('{}', problem)));
    await recordResponse(tally, () => Promise.resolve(new Response('[]', { status: 200 })));
    expect(() => assertNoServerErrors(tally)).not.toThrow();
    await recordResponse(tally, () => Promise.resolve(new Response('boom', { status: 500 })));
    expect(() => assertNoServerErrors(tally)).toThrow(/500 boom/);
  });
});
