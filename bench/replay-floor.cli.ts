// Run by `bench:reindex --replay` as a process of its own (a fresh heap, as the reindex process has):
// the replay's floor, the least any replay does. It reads every stream from PostgreSQL as the replay
// does (pages of places from `allPlaceIds`, each page's events by `readPageStreams`), runs the same pure
// fold on each (refold and serialize), and bulk-loads the documents into a fresh index with the same
// bulk writer, one request per page and one in flight, the next page read and folded meanwhile.
// No lock, no places rows written, no verification, no swap. Prints one JSON line of its figures.
import { parseArgs } from 'node:util';
import { databaseTimeouts, loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { peakResidentMegabytes } from '@directory/observability';
import { projectPlace } from '@directory/domain';
import { allPlaceIds, readPageStreams } from '@directory/event-store';
import { REPLAY_PAGE } from '@directory/operator';
import { createDoctorsIndex, createSearchClient, writeSerializedProjections } from '@directory/search-index';

const { values } = parseArgs({ options: { index: { type: 'string' } } });
if (values.index === undefined) throw new Error('--index is required');
const index = values.index;

const config = loadConfig();
const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'job') });
const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 120_000, maxRetries: 3 });

type FoldedPage = {
  documents: Array<{ placeId: string; version: number; documentJson: string }>;
  events: number;
};

let foldMicros = 0;

/** Each page of places' streams, read as the replay reads them and folded. */
async function* foldedPages(): AsyncGenerator<FoldedPage> {
  for await (const page of allPlaceIds(db, REPLAY_PAGE)) {
    const streams = await readPageStreams(db, page);
    const startedFold = process.cpuUsage();
    const documents: FoldedPage['documents'] = [];
    let events = 0;
    for (const [placeId, stream] of streams) {
      const place = projectPlace(placeId, stream, { siteOrigin: config.SITE_ORIGIN });
      documents.push({ placeId, version: place.stateVersion, documentJson: JSON.stringify(place.document) });
      events += stream.length;
    }
    const spent = process.cpuUsage(startedFold);
    foldMicros += spent.user + spent.system;
    yield { documents, events };
  }
}

try {
  await createDoctorsIndex(client, index, { refresh_interval: '-1', number_of_replicas: 0 });
  const started = performance.now();
  let documents = 0;
  let events = 0;
  const pages = foldedPages();
  let next = pages.next();
  for (;;) {
    const page = await next;
    if (page.done) break;
    next = pages.next();
    next.catch(() => undefined);
    await writeSerializedProjections(client, index, page.value.documents);
    documents += page.value.documents.length;
    events += page.value.events;
  }
  await client.indices.refresh({ index });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      documents,
      events,
      seconds,
      foldCpuSeconds: foldMicros / 1e6,
      peakRssMb: peakResidentMegabytes(),
    }),
  );
} finally {
  await db.destroy();
  await client.close();
}
