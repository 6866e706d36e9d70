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

// Letters read, validated and ingested at a time: a letter may keep a line of a megabyte, so `--all`
// holds one page in memory, never every letter.
const REDRIVE_PAGE = 100;

/**
 * Re-validates dead letters (after the schema or the data was fixed) and ingests the ones that now pass.
 * Idempotent: an event already stored is a duplicate, and a re-driven letter is marked so `--all` skips it.
 * A letter that still fails stays pending with its reason reported. `all` walks the pending letters
 * once, in pages by id (a letter still invalid stays pending behind the walk, so it is not read again).
 */
export async function redriveDeadLetters(
  deps: ProjectorDependencies,
  ids: ReadonlyArray<number> | 'all',
  options: { pageSize?: number } = {},
): Promise<RedriveResult> {
  const pageSize = options.pageSize ?? REDRIVE_PAGE;
  const result: RedriveResult = {
    redriven: 0,
    stored: 0,
    duplicates: 0,
    stillInvalid: [],
    projectionFailures: 0,
  };
  if (ids !== 'all') {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += pageSize) {
      const letters = await getDeadLetters(deps.db, unique.slice(start, start + pageSize));
      await redrivePage(
        deps,
        letters.filter((letter) => letter.redrivenAt === null),
        result,
      );
    }
    return result;
  }
  let afterId = 0;
  for (;;) {
    const letters = await listDeadLetters(deps.db, { limit: pageSize, afterId });
    const last = letters.at(-1);
    if (last === undefined) return result;
    await redrivePage(deps, letters, result);
    afterId = last.id;
  }
}

/** One page of letters: the valid ones appended, folded, projected and marked; the rest reported. */
async function redrivePage(
  deps: ProjectorDependencies,
  letters: ReadonlyArray<DeadLetter>,
  result: RedriveResult,
): Promise<void> {
  const valid: Array<{ id: number; event: PlaceEvent }> = [];
  for (const letter of letters) {
    const parsed = parsePlaceEvent(letter.raw);
    if (parsed.ok) valid.push({ id: letter.id, event: parsed.value });
    else result.stillInvalid.push({ id: letter.id, reason: parsed.error });
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
  result.redriven += valid.length;
  result.stored += appended.stored.length;
  result.duplicates += appended.duplicates.length;
  result.projectionFailures += projection.refused.length;
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
