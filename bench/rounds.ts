// Rounds that alternate the sides of a benchmark (ours against the floor or the raw engine), and the
// median and range of each figure over them: on a shared machine one run of each side says little, as
// the load of everything else drifts; alternating the order round by round spreads that drift over
// both sides alike, and the median with its range says how much a figure moved.

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: ReadonlyArray<number>): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function range(values: ReadonlyArray<number>): { min: number; max: number } {
  if (values.length === 0) throw new Error('range of no values');
  return { min: Math.min(...values), max: Math.max(...values) };
}

/** One figure over the rounds: its median, its range, and every round's value in round order. */
export type Figure = { median: number; min: number; max: number; values: number[] };

export function figure(values: ReadonlyArray<number>): Figure {
  return { median: median(values), ...range(values), values: [...values] };
}

/** "median (min–max)", each with `digits` decimals, and the unit after them when given. */
export function formatFigure(value: Figure, digits = 2, unit = ''): string {
  const suffix = unit === '' ? '' : ` ${unit}`;
  return `${value.median.toFixed(digits)}${suffix} (${value.min.toFixed(digits)}–${value.max.toFixed(digits)})`;
}

/** A figure rounded for a JSON line: the median, and the range as [min, max]. */
export function roundedRange(value: Figure, digits = 2): [number, number] {
  const factor = 10 ** digits;
  return [Math.round(value.min * factor) / factor, Math.round(value.max * factor) / factor];
}

export type Side<T> = {
  name: string;
  /** One measured run of this side; `round` counts from 0. */
  run: (round: number) => Promise<T>;
};

export type Round<T> = {
  /** Counts from 0. */
  round: number;
  /** The sides' names in the order they ran in this round. */
  order: string[];
  /** Each side's result, by name. */
  results: Map<string, T>;
};

/** The order of the sides in a round: as given in even rounds, reversed in odd ones (A B, B A, A B, …). */
export function sideOrder<S>(sides: ReadonlyArray<S>, round: number): S[] {
  return round % 2 === 0 ? [...sides] : [...sides].reverse();
}

/**
 * Runs `warmup` (unmeasured: caches, JIT and the engines' buffers filled before the first measured
 * run), then `rounds` rounds of every side, the order alternating from round to round so neither side
 * always runs first (right after the other's work) or last. `afterRound` sees each round as it ends, so a
 * benchmark prints it before a later round can fail.
 */
export async function alternateRounds<T>(options: {
  rounds: number;
  sides: ReadonlyArray<Side<T>>;
  warmup?: () => Promise<void>;
  afterRound?: (round: Round<T>) => void | Promise<void>;
}): Promise<Array<Round<T>>> {
  const { rounds, sides } = options;
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`rounds must be a whole number ≥ 1, not ${rounds}`);
  if (new Set(sides.map((side) => side.name)).size !== sides.length)
    throw new Error('side names must differ');
  await options.warmup?.();
  const done: Array<Round<T>> = [];
  for (let round = 0; round < rounds; round += 1) {
    const ordered = sideOrder(sides, round);
    const results = new Map<string, T>();
    for (const side of ordered) results.set(side.name, await side.run(round));
    const finished = { round, order: ordered.map((side) => side.name), results };
    done.push(finished);
    await options.afterRound?.(finished);
  }
  return done;
}

/** One side's results over the rounds, in round order. */
export function resultsOf<T>(rounds: ReadonlyArray<Round<T>>, side: string): T[] {
  return rounds.map(({ results, round }) => {
    if (!results.has(side)) throw new Error(`round ${round} has no result for ${side}`);
    return results.get(side) as T;
  });
}

export const DEFAULT_ROUNDS = 3;

/** The `--rounds` option for node:util's parseArgs. */
export const ROUNDS_OPTION = { type: 'string', default: String(DEFAULT_ROUNDS) } as const;

/**
 * `--rounds N`: a whole number ≥ 1 (default 3). Fewer than 3 rounds give no meaningful median or range:
 * allowed for a smoke run, with a warning.
 */
export function parseRounds(
  text: string | undefined,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): number {
  const rounds = text === undefined ? DEFAULT_ROUNDS : Number(text);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds must be a whole number ≥ 1, not ${text}`);
  if (rounds < DEFAULT_ROUNDS)
    warn(`smoke run: fewer than ${DEFAULT_ROUNDS} rounds, figures are not comparable`);
  return rounds;
}
