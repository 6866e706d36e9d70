import { parsePlaceEvent, type PlaceEvent } from '@directory/domain';
import {
  appendEvents,
  findLaggingPlaceIds,
  recordDeadLetters,
  type DeadLetterInput,
} from '@directory/event-store';
import { refoldAndProject, type ProjectorDependencies } from './projector.service.js';
import type { IngestItem, IngestJobResult } from './queue.js';

/**
 * One batch through the pipeline: validate each event (invalid → dead letter, the rest proceeds), append
 * the valid ones and record the dead letters in one transaction, refold the places that got new events
 * and project them (a document the index refuses becomes a projection failure, the rest proceeds). A place whose events were all
 * duplicates is refolded only if it lags its stored stream (a retry after a crash between append and
 * projection); a file sent twice costs no refolds.
 */
export async function ingestBatch(
  deps: ProjectorDependencies,
  items: ReadonlyArray<IngestItem>,
): Promise<IngestJobResult> {
  const valid: PlaceEvent[] = [];
  const rejected: DeadLetterInput[] = [];
  for (const item of items) {
    if (item.rejection !== undefined) {
      rejected.push({ raw: item.raw, reason: item.rejection, source: item.source });
      continue;
    }
    const parsed = parsePlaceEvent(item.raw);
    if (parsed.ok) valid.push(parsed.value);
    else rejected.push({ raw: item.raw, reason: parsed.error, source: item.source });
  }
  // Dead letters commit with the append, before any projection: an outage of the index, however long,
  // can delay the batch but never lose its rejected lines.
  const appended = await deps.db.transaction().execute(async (transaction) => {
    const result = await appendEvents(transaction, valid);
    // Idempotent (fingerprinted), so a retry records nothing twice.
    await recordDeadLetters(transaction, rejected);
    return result;
  });
  const changed = new Set(appended.stored.map((event) => event.placeId));
  const onlyDuplicates = [...new Set(valid.map((event) => event.placeId))].filter((id) => !changed.has(id));
  const unfinished = await findLaggingPlaceIds(deps.db, {
    limit: onlyDuplicates.length,
    among: onlyDuplicates,
  });
  const projection = await refoldAndProject(deps, [...changed, ...unfinished], appended.completeStreams);
  const sampled = appended.stored.at(-1)?.placeId;
  return {
    received: items.length,
    stored: appended.stored.length,
    duplicates: appended.duplicates.length,
    deadLettered: rejected.length,
    projected: projection.projected,
    projectionFailures: projection.refused.length,
    ...(sampled === undefined ? {} : { samplePlaceId: sampled }),
  };
}
