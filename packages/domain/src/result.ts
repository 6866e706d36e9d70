/**
 * The outcome of a check that can fail for a reason the caller reports to a user (a 400 detail, a dead
 * letter reason). Expected failures are values, not exceptions; exceptions stay for broken invariants.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; reason: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: string): Result<T> {
  return { ok: false, reason };
}
