import type { PlaceState } from '../events/place-state.js';
import { profilePageKey } from './profile-url.js';

/**
 * One place's own merge, as its fold leaves it (`place.merged`, not undone by a later `place.unmerged`):
 * the place it was merged into, and when. The worker stores it beside the place's document (migration
 * 0016), so a read can follow an id without folding anything.
 */
export type MergeLink = { placeId: string; mergedInto: string; mergedAt: string };

/**
 * Where a merged-away id forwards to: the **final** survivor of its chain (A into B, B into C: C), and
 * when the id itself was merged away (its own `place.merged`).
 */
export type MergeForward = MergeLink;

/**
 * A merged-away place's merge as the worker stores it (migrations 0016, 0020): its direct link, and the
 * profile page it was last published under (`profilePageKey`; null if it never was). A profile URL
 * names a page, not an id, so the page of a merged-away record resolves to the survivor.
 */
export type StoredMerge = MergeLink & { profilePage: string | null };

/** The stored merge of a folded state, or null when the place is not merged away. */
export function storedMergeOf(state: PlaceState): StoredMerge | null {
  if (state.mergedInto === null || state.mergedAt === null) return null;
  const { placeId, mergedInto, mergedAt, publication } = state;
  return {
    placeId,
    mergedInto,
    mergedAt,
    profilePage: publication === null ? null : profilePageKey(publication),
  };
}

/**
 * Follows `placeId`'s merge chain through `links` (every link reachable from it) to the place that is
 * not merged away: that is the survivor. Null when the place is not merged away, and when the chain
 * loops (A into B, B into A, or any longer ring, or a chain that runs into one): such ids have no
 * survivor and answer like any record no longer served.
 *
 * Why loops are resolved here and not refused at ingest: each merge lives on its own place's stream,
 * and streams are folded independently, in any order and concurrently. Refusing the merge that closes
 * a loop would make the stored events depend on which one arrived first (B into A refused if A into B
 * came first, and the other way round), so the same events would no longer converge to the same
 * state. Read here, the answer depends only on the current links, whatever order they came in; an
 * unmerge that breaks the loop brings the forwarding back.
 */
export function resolveMerge(placeId: string, links: ReadonlyMap<string, MergeLink>): MergeForward | null {
  const own = links.get(placeId);
  if (own === undefined) return null;
  const seen = new Set<string>([placeId]);
  let current = own.mergedInto;
  for (;;) {
    if (seen.has(current)) return null;
    seen.add(current);
    const next = links.get(current);
    if (next === undefined) return { placeId, mergedInto: current, mergedAt: own.mergedAt };
    current = next.mergedInto;
  }
}

/** `resolveMerge` for each id that forwards, keyed by id (ids with no survivor are left out). */
export function resolveMerges(
  placeIds: ReadonlyArray<string>,
  links: ReadonlyArray<MergeLink>,
): Map<string, MergeForward> {
  const byPlace = new Map(links.map((link) => [link.placeId, link]));
  const forwards = new Map<string, MergeForward>();
  for (const placeId of placeIds) {
    const forward = resolveMerge(placeId, byPlace);
    if (forward !== null) forwards.set(placeId, forward);
  }
  return forwards;
}
