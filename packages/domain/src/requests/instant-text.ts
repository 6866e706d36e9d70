import { z } from 'zod';

/**
 * An instant as a query parameter gives it: search's `openAt` and the changes feed's `since` read the
 * same text, so both parse it here.
 */

export const OPEN_AT_REASON =
  'must be an ISO 8601 date and time with a UTC offset or Z, e.g. "2026-11-23T09:30:00+01:00" or "2026-11-23T08:30Z"';

// With or without seconds (and fractions); the offset is required: an instant, not a wall-clock time.
const WITH_SECONDS = z.iso.datetime({ offset: true });
const WITHOUT_SECONDS = z.iso.datetime({ offset: true, precision: -1 });

/** `openAt` as given: the text, once it is known to be an instant. */
export const openAtText = z
  .string({ error: OPEN_AT_REASON })
  .refine(
    (text) =>
      (WITH_SECONDS.safeParse(text).success || WITHOUT_SECONDS.safeParse(text).success) &&
      Number.isFinite(Date.parse(text)),
    { error: OPEN_AT_REASON },
  )
  .optional();

/** The canonical form of an `openAt` instant: UTC, milliseconds, so equal instants bind one cursor. */
export function canonicalInstant(text: string): string {
  return new Date(Date.parse(text)).toISOString();
}
