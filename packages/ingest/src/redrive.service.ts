import { parsePlaceEvent, type PlaceEvent } from '@directory/domain';
import {
  appendEvents,
  getDeadLetters,
  listDeadLetters,
  markRedriven,
  type DeadLetter,
} from '@directory/event-store';
import { refoldAndProject, type ProjectorDependencies } from './projector.service.js';

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
    if (parsed.ok) valid.push({ id: letter.id, event: parsed.event });
    else stillInvalid.push({ id: letter.id, reason: parsed.reason });
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
