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
    return byCost !== 0 ? byCost : comparePaths(a.path, b.path);
  });
}

/** One file's time in a run: importing it, its hooks and its tests, in milliseconds. */
export type FileTime = { path: string; milliseconds: number };

/** What test/file-durations.json holds: seconds to a tenth, by path in path order. */
export function fileDurations(times: ReadonlyArray<FileTime>): Record<string, number> {
  return Object.fromEntries(
    [...times]
      .sort((a, b) => comparePaths(a.path, b.path))
      .map(({ path, milliseconds }) => [path, Math.round(milliseconds / 100) / 10]),
  );
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
