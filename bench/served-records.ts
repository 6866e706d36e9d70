import { sql } from 'kysely';
import { LIVE_COUNTRY_CODES, toSearchDocument, type SearchDocument } from '@directory/domain';
import { savePlaceStates } from '@directory/event-store';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import { projectRawEvents } from '@directory/testing';
import { servedPlace } from './api-workload.js';
import { log, type BenchEnvironment } from './bench-environment.js';

/**
 * Indexes the bench's served records (api-workload.ts) straight into the alias, as the worker would
 * leave them: what `bench:api` and `bench:suggest` query. Returns the seconds it took (bulk, refresh
 * and the merge to one segment).
 */
export async function indexServedRecords(environment: BenchEnvironment, records: number): Promise<number> {
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
  const seconds = (performance.now() - indexStarted) / 1000;
  log(`indexed in ${seconds.toFixed(1)} s`);
  return seconds;
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

/**
 * `places` served places of the live datasets from the sample generator, folded and projected as the
 * worker does (`bench:relevance`, `bench:search-cost`): realistic names, cities and specialties.
 */
export function generateServedDocuments(places: number, seed: number, siteOrigin: string): SearchDocument[] {
  const live: ReadonlySet<string> = new Set(LIVE_COUNTRY_CODES);
  // About one generated event in 5.5 ends up a served live place; a short run is generated again, longer.
  let count = Math.ceil(places * 5.8);
  for (;;) {
    const rows = projectRawEvents(generateEvents({ count, seed }), siteOrigin).rows.values();
    const served = [...rows]
      .map((row) => row.document)
      .filter((document): document is SearchDocument => document.served && live.has(document.country));
    if (served.length >= places) return served.slice(0, places);
    log(`${count} events made ${served.length} served places; generating again, longer`);
    count = Math.ceil((count * places * 1.1) / Math.max(1, served.length));
  }
}
