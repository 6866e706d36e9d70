/**
 * The order test files start in. Two workers take files from one queue per project, so a project lasts
 * until its last file ends: a long file started last keeps one worker busy while the other idles. Starting
 * the longest first (by each file's time in an earlier full run, committed in test/file-durations.json
 * because a fresh clone has no vitest cache) leaves only short files for the end.
 */
export type FileToOrder = {
  /** The spec file's path relative to the repository root, with forward slashes. */
  path: string;
  /** Its size in bytes: the guess for files no earlier run timed. */
  size: number;
};

/** Seconds each file took in an earlier run, by path relative to the repository root. */
export type FileDurations = Readonly<Record<string, number>>;

/**
 * Files no run has timed first (new files: their cost is unknown, so they do not end a project), largest
 * first among them; then the timed ones, longest first. Ties keep the path order, so the result is stable.
 */
export function orderLongestFirst<T extends FileToOrder>(
  files: ReadonlyArray<T>,
  durations: FileDurations,
): T[] {
  const durationOf = (file: T): number | undefined => {
    const seconds = durations[file.path];
    return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : undefined;
  };
  return [...files].sort((a, b) => {
    const [secondsA, secondsB] = [durationOf(a), durationOf(b)];
    if (secondsA === undefined && secondsB !== undefined) return -1;
    if (secondsB === undefined && secondsA !== undefined) return 1;
    const byCost = secondsA === undefined || secondsB === undefined ? b.size - a.size : secondsB - secondsA;
    return byCost !== 0 ? byCost : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

/**
 * Each file's seconds from vitest's JSON report (`testResults[].name`, `startTime`, `endTime`), by path
 * relative to `root`, rounded to a tenth: what test/file-durations.json holds.
 */
export function durationsFromReport(report: unknown, root: string): Record<string, number> {
  const results = (report as { testResults?: unknown } | null)?.testResults;
  if (!Array.isArray(results)) throw new Error('not a vitest JSON report: no testResults array');
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const durations: Record<string, number> = {};
  for (const result of results as Array<{ name?: unknown; startTime?: unknown; endTime?: unknown }>) {
    const { name, startTime, endTime } = result;
    if (typeof name !== 'string' || typeof startTime !== 'number' || typeof endTime !== 'number') continue;
    const path = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    durations[path] = Math.round((endTime - startTime) / 100) / 10;
  }
  return Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
