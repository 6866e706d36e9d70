/**
 * Paces a command's progress lines when no progress bar is drawn (its output goes to a log): a line
 * is due at the first call and then at most once per interval, or whenever `force` says so (the last
 * line of a phase). A due answer counts as the line written.
 */
export function createLinePacer(
  intervalMs = 2_000,
  now: () => number = Date.now,
): (force?: boolean) => boolean {
  let lastLineAt: number | undefined;
  return (force = false) => {
    const at = now();
    if (!force && lastLineAt !== undefined && at - lastLineAt < intervalMs) return false;
    lastLineAt = at;
    return true;
  };
}
