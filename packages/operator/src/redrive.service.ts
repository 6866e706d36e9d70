import { parsePlaceEvent, type PlaceEvent } from '@directory/domain';
import {
  appendEvents,
  getDeadLetters,
  listDeadLetters,
  markRedriven,
  releaseProjectionFailures,
  type DeadLetter,
} from '@directory/event-store';
import { refoldAndProject, type ProjectorDependencies } from '@directory/ingest';
import type { RefusedProjection } from '@directory/search-index';

export type RedriveResult = {
  redriven: number;
  stored: number;
  duplicates: number;
  stillInvalid: Array<{ id: number; reason: string }>;
  /** Places the index refused for their content (recorded as projection failures). */
  projectionFailures: number;
};

/**
 * Re-validates dead letters (after the schema or the data was fixed) and ingests the ones that now pass.
 * Idempotent: an event already stored is a duplicate, and a re-driven letter is marked so `--all` skips it.
 * A letter that still fails stays pending with its reason reported.
 */
export async function redriveDeadLetters(
  deps: ProjectorDependencies,
  ids: ReadonlyArray<number> | 'all',
): Promise<RedriveResult> {
  const letters: DeadLetter[] =
    ids === 'all'
      ? await listDeadLetters(deps.db, { limit: 1_000_000 })
      : (await getDeadLetters(deps.db, ids)).filter((letter) => letter.redrivenAt === null);
  const valid: Array<{ id: number; event: PlaceEvent }> = [];
  const stillInvalid: RedriveResult['stillInvalid'] = [];
  for (const letter of letters) {
    const parsed = parsePlaceEvent(letter.raw);
    if (parsed.ok) valid.push({ id: letter.id, event: parsed.value });
    else stillInvalid.push({ id: letter.id, reason: parsed.error });
  }
  const appended = await appendEvents(
    deps.db,
    valid.map((item) => item.event),
  );
  const projection = await refoldAndProject(
    deps,
    [...new Set(valid.map((item) => item.event.placeId))],
    appended.completeStreams,
  );
  await markRedriven(
    deps.db,
    valid.map((item) => item.id),
  );
  return {
    redriven: valid.length,
    stored: appended.stored.length,
    duplicates: appended.duplicates.length,
    stillInvalid,
    projectionFailures: projection.refused.length,
  };
}

export type ProjectionRetryResult = {
  /** Places whose failure was released and projected again. */
  retried: number;
  projected: number;
  /** Still refused by the index (recorded again, with the current reason). */
  stillRefused: RefusedProjection[];
};

const RETRY_PAGE = 1_000;

/**
 * Projects places set aside as projection failures again, now (after a fix to the mapping, the fold or
 * the cluster). A place still refused is recorded again; one projected leaves the list.
 */
export async function retryProjectionFailures(
  deps: ProjectorDependencies,
  placeIds: ReadonlyArray<string> | 'all',
): Promise<ProjectionRetryResult> {
  const released = await releaseProjectionFailures(deps.db, placeIds);
  const result: ProjectionRetryResult = { retried: released.length, projected: 0, stillRefused: [] };
  for (let start = 0; start < released.length; start += RETRY_PAGE) {
    const outcome = await refoldAndProject(deps, released.slice(start, start + RETRY_PAGE));
    result.projected += outcome.projected;
    result.stillRefused.push(...outcome.refused);
  }
  return result;
}
