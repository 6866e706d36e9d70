import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectory, type Directory } from '@directory/search';
import type { SearchDocument } from '@directory/domain';
import { ingestBatch, type ProjectorDependencies } from '@directory/ingest';
import { reindex } from '@directory/operator';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex, writeProjections } from '@directory/search-index';
import {
  assertConverged,
  createTestDatabase,
  createTestSearch,
  SITE_ORIGIN,
  type TestDatabase,
} from '@directory/testing';

describe('fault: a delayed stale write reaches the index after a reindex', () => {
  let database: TestDatabase;
  const search = createTestSearch('reindex-stale');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;
  let directory: Directory;
  const events: unknown[] = [...generateEvents({ count: 400, seed: 5 })];

  beforeAll(async () => {
    database = await createTestDatabase('reindex-stale');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN };
    directory = createDirectory({
      client: search.client,
      alias,
      siteOrigin: SITE_ORIGIN,
      cursorSecret: 'reindex-stale-cursor-secret-0123456789',
    });
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  async function lookUp(placeId: string) {
    await search.client.indices.refresh({ index: alias });
    return (await directory.getDoctor(placeId)).status;
  }

  it('publish → close → reindex → an older version arrives late: the record stays suppressed (404)', async () => {
    await ingestBatch(
      deps,
      events.map((raw) => ({ raw, source: 'stale:published' })),
    );
    const served = await database.db
      .selectFrom('places')
      .select(['place_id', 'state_version', 'document'])
      .where('served', '=', true)
      .orderBy('place_id')
      .executeTakeFirstOrThrow();
    expect(await lookUp(served.place_id)).toBe('found');

    const closed = {
      eventId: `${served.place_id}-closed-late`,
      placeId: served.place_id,
      type: 'place.closed',
      occurredAt: '2026-12-31T00:00:00.000Z',
      schemaVersion: 1,
      payload: {},
    };
    events.push(closed);
    await ingestBatch(deps, [{ raw: closed, source: 'stale:closed' }]);
    expect(await lookUp(served.place_id)).toBe('not-found');
    // As in production, the place was closed long before the reindex: outside its catch-up margin, so
    // only the bulk load can carry the tombstone.
    await database.db
      .updateTable('places')
      .set({ updated_at: new Date(Date.now() - 3_600_000) })
      .execute();

    const summary = await reindex({ db: database.db, client: search.client, alias, siteOrigin: SITE_ORIGIN });
    expect(summary.previousIndices).not.toContain(summary.newIndex);
    expect(await lookUp(served.place_id)).toBe('not-found');

    // A worker that folded the place before it was closed, delayed until now, writes what it holds:
    // the served document at its older version, with external versioning like every projection.
    const late = await writeProjections(search.client, alias, [
      {
        placeId: served.place_id,
        version: Number(served.state_version),
        source: served.document as SearchDocument,
      },
    ]);
    expect(late).toMatchObject({ written: 0, stale: 1 });
    expect(await lookUp(served.place_id)).toBe('not-found');
    await assertConverged({
      db: database.db,
      search: { client: search.client, alias },
      siteOrigin: SITE_ORIGIN,
      lines: events,
    });
  });
});
