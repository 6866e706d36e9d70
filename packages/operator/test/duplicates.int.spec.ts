import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBatch, type IngestItem } from '@directory/ingest';
import { generateLabelledPlaces, type LabelledPlace } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  REPOSITORY_ROOT,
  SITE_ORIGIN,
  createTestDatabase,
  createTestSearch,
  nodeArguments,
  type TestDatabase,
  type TestSearch,
} from '@directory/testing';

const CLI = 'packages/operator/src/duplicates.cli.ts';

/** A crawl and a publication per labelled record, as a producer sends them. */
function eventsOf(place: LabelledPlace): IngestItem[] {
  const envelope = (n: number, type: string, occurredAt: string, payload: unknown) => ({
    raw: {
      eventId: `ev_${place.placeId}_${n}`,
      placeId: place.placeId,
      type,
      occurredAt,
      schemaVersion: 1,
      payload,
    },
    source: 'duplicates spec',
  });
  return [
    envelope(1, 'place.crawled', '2026-01-01T10:00:00Z', {
      observed: place.observed,
      crawl: {
        sourceUrl: `https://${place.sourceId}.example/${place.placeId}`,
        crawlId: `cr_${place.placeId}`,
        httpStatus: 200,
        fetchedAt: '2026-01-01T09:59:00Z',
        durationMs: 120,
        contentHash: `sha256:${place.placeId}`,
      },
    }),
    envelope(2, 'place.published', '2026-01-01T11:00:00Z', place.publication),
  ];
}

/**
 * `directory duplicates` on the real database: labelled crawls of German practices (duplicates from
 * several sources and look-alikes) ingested through the pipeline, the dry run proposing exactly the
 * true pairs, and `--apply` merging them so that the merged-away records are served as merges.
 */
describe('directory duplicates', () => {
  let database: TestDatabase;
  let search: TestSearch;
  let alias: string;
  const places = [...generateLabelledPlaces({ count: 400, seed: 5 })].filter(
    (place) => place.observed.address.country === 'DE',
  );
  const clusterOf = new Map(places.map((place) => [place.placeId, place.clusterId]));

  const run = (args: string[]) =>
    spawnSync(process.execPath, nodeArguments(CLI, args), {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias },
    });

  beforeAll(async () => {
    database = await createTestDatabase('duplicates');
    search = createTestSearch('duplicates');
    alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias);
    const deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE_ORIGIN };
    const result = await ingestBatch(deps, places.flatMap(eventsOf));
    expect(result.deadLettered).toBe(0);
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('proposes the true pairs in a dry run, writes nothing and exits 1; --apply merges them', async () => {
    const truth = new Set<string>();
    for (const x of places)
      for (const y of places)
        if (x.placeId < y.placeId && x.clusterId === y.clusterId) truth.add(`${x.placeId} ${y.placeId}`);
    expect(truth.size).toBeGreaterThan(5);
    expect(places.some((place) => place.kind === 'lookalike')).toBe(true);

    const dry = run(['--dataset', 'de', '--json']);
    expect(dry.stderr).toContain('dry run');
    expect(dry.status).toBe(1);
    const report = JSON.parse(dry.stdout) as {
      pairs: Array<{ a: string; b: string; score: number; evidence: { phone: string } }>;
      merges: Array<{ placeId: string; into: string }>;
    };
    expect(new Set(report.pairs.map((pair) => `${pair.a} ${pair.b}`))).toEqual(truth);
    for (const merge of report.merges) expect(clusterOf.get(merge.placeId)).toBe(clusterOf.get(merge.into));
    const before = await database.db
      .selectFrom('places')
      .select('place_id')
      .where('merged_into', 'is not', null)
      .execute();
    expect(before).toEqual([]);

    const table = run(['--dataset', 'de']);
    expect(table.stdout.split('\n').filter((line) => line.startsWith('merge\t'))).toHaveLength(
      report.merges.length,
    );

    const applied = run(['--dataset', 'de', '--apply']);
    expect(applied.stderr).toContain(
      `applied: ${report.merges.length} place.merged events stored, 0 rejected`,
    );
    expect(applied.status).toBe(0);
    const rows = await database.db
      .selectFrom('places')
      .select(['place_id', 'merged_into', 'served'])
      .where('merged_into', 'is not', null)
      .orderBy('place_id')
      .execute();
    expect(rows).toEqual(
      [...report.merges]
        .sort((x, y) => (x.placeId < y.placeId ? -1 : 1))
        .map((merge) => ({ place_id: merge.placeId, merged_into: merge.into, served: false })),
    );
    const survivors = await database.db
      .selectFrom('places')
      .select(['place_id', 'served'])
      .where('place_id', 'in', [...new Set(report.merges.map((merge) => merge.into))])
      .execute();
    expect(survivors.every((row) => row.served)).toBe(true);

    // Merged away, the duplicates are no longer served: nothing is left to propose.
    const again = run(['--dataset', 'de']);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('refuses an unknown dataset as a usage error', () => {
    const refused = run(['--dataset', 'xx']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('xx');
  });
});
