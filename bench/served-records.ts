import { sql } from 'kysely';
import { toSearchDocument } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import { ensureDoctorsIndex } from '@directory/search-index';
import { servedPlace } from './api-workload.js';
import { log, type BenchEnvironment } from './bench-environment.js';

/**
 * Indexes the bench's served records (api-workload.ts) straight into the alias, as the worker would
 * leave them: what `bench:api` and `bench:suggest` query.
 */
export async function indexServedRecords(environment: BenchEnvironment, records: number): Promise<void> {
  const { client, alias, config } = environment;
  await ensureDoctorsIndex(client, alias);
  await client.indices.putSettings({ index: alias, settings: { refresh_interval: '-1' } });
  log(`indexing ${records} served records into ${alias}`);
  const indexStarted = performance.now();
  for (let start = 0; start < records; start += 5_000) {
    const operations = [];
    for (let index = start; index < Math.min(records, start + 5_000); index += 1) {
      const document = toSearchDocument(servedPlace(index), { siteOrigin: config.SITE_ORIGIN });
      operations.push(
        { index: { _index: alias, _id: document.placeId, version: 1, version_type: 'external' as const } },
        document,
      );
    }
    const response = await client.bulk({ operations });
    if (response.errors) throw new Error('bulk indexing failed');
  }
  await client.indices.putSettings({ index: alias, settings: { refresh_interval: '1s' } });
  await client.indices.refresh({ index: alias });
  await client.indices.forcemerge({ index: alias, max_num_segments: 1 });
  log(`indexed in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);
}

/** The changes feed reads the places table: the same number of served records, as the worker saves them. */
export async function storeServedRecords(environment: BenchEnvironment, records: number): Promise<void> {
  log(`storing ${records} served records in the places table (changes feed)`);
  for (let start = 0; start < records; start += 2_000) {
    const rows = [];
    for (let index = start; index < Math.min(records, start + 2_000); index += 1) {
      const state = servedPlace(index);
      rows.push({
        placeId: state.placeId,
        stateVersion: 1,
        document: toSearchDocument(state, { siteOrigin: environment.config.SITE_ORIGIN }),
      });
    }
    await savePlaceStates(environment.db, rows);
  }
  await sql`analyze places`.execute(environment.db);
}
