import { isDeepStrictEqual } from 'node:util';
import { countPlacesUpdatedSince, countServedPlaces, readStreams } from '@directory/event-store';
import { projectPlace } from '@directory/domain';
import { ReindexVerificationError } from './reindex-errors.js';
import type { ReindexOptions, ReindexSummary, ReportProgress } from './reindex-options.js';

/**
 * Counts must agree (served rows = served documents) and a sample of documents must equal the
 * projection of the stored state. Ingestion keeps running, so the counts may differ by at most the rows
 * written since the last catch-up began (those are caught up again after the swap); a larger gap is
 * caught up and re-checked a few times before it counts as a failure.
 */
export async function verify(
  options: ReindexOptions,
  index: string,
  summary: ReindexSummary,
  catchUp: () => Promise<Date>,
  progress: ReportProgress,
): Promise<void> {
  const { client, db } = options;
  let lastCatchUpFrom = await catchUp();
  for (let attempt = 1; ; attempt++) {
    await client.indices.refresh({ index });
    summary.servedCount = await countServedPlaces(db);
    const counted = await client.count({ index, query: { term: { served: true } } });
    summary.indexedCount = counted.count;
    const changedSince = await countPlacesUpdatedSince(db, lastCatchUpFrom);
    await progress({
      phase: 'verify',
      detail: `served ${summary.servedCount}, indexed ${summary.indexedCount}, changed meanwhile ${changedSince}`,
    });
    if (Math.abs(summary.indexedCount - summary.servedCount) <= changedSince) break;
    if (attempt >= 5) {
      throw new ReindexVerificationError(
        `count mismatch: ${summary.servedCount} served places, ${summary.indexedCount} documents in ${index}`,
      );
    }
    lastCatchUpFrom = await catchUp();
  }
  await verifySample(options, index);
}

async function verifySample(options: ReindexOptions, index: string): Promise<void> {
  const sample = await options.client.search<Record<string, unknown>>({
    index,
    size: options.sampleSize ?? 50,
    query: { function_score: { query: { term: { served: true } }, functions: [{ random_score: {} }] } },
    version: true,
  });
  const ids = sample.hits.hits.map((hit) => hit._id ?? '');
  // Refolded from the event store with the code running now: a document stored by an older fold or
  // allowlist fails here, and so does anything that drifted from the events.
  const streams = await readStreams(options.db, ids);
  for (const hit of sample.hits.hits) {
    const placeId = hit._id ?? '';
    const place = projectPlace(placeId, streams.get(placeId) ?? [], { siteOrigin: options.siteOrigin });
    // A place that moved on since it was indexed is the worker's to project; only equal versions must match.
    if (place.stateVersion !== hit._version) continue;
    if (!isDeepStrictEqual(place.document, hit._source)) {
      throw new ReindexVerificationError(
        `document ${placeId} in ${index} differs from the projection of its event stream ` +
          '(did the fold or the allowlist change? run with --replay)',
      );
    }
  }
}
