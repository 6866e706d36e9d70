/**
 * The outcome of a check that can fail for a reason the caller reports to a user (a 400 detail, a dead
 * letter reason, a failed job). Expected failures are values, not exceptions; exceptions stay for
 * broken invariants. `error` is whatever the caller needs to report: one reason by default, or a list
 * (every bad parameter at once: `Result<T, ParameterError[]>`).
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E = string>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
