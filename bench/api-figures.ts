// bench:api's figures over its rounds (pure: test/bench/api-figures.unit.spec.ts): each round compares
// ours and raw on the same requests; the medians and ranges over the rounds are what it reports, and the
// goals of the zipf and facets mixes are judged on them.
import { figure, formatFigure, type Figure } from './rounds.js';

/** One side's phase in one round. */
export type PhaseSummary = { rps: number; p50: number; p99: number; count: number; stealSeconds: number };

export type ApiRound = { ours: PhaseSummary; raw: PhaseSummary };

export type ApiRoundFigures = {
  rounds: number;
  /** ours ÷ raw requests per second, one value per round. */
  ratio: Figure;
  oursRps: Figure;
  rawRps: Figure;
  oursP50: Figure;
  rawP50: Figure;
  oursP99: Figure;
  rawP99: Figure;
  /** Whether ours' p99 was at most raw's in each round, not just in the median. */
  p99LeRawEveryRound: boolean;
  /** Steal during both sides' measured phases, all rounds together. */
  stealSeconds: number;
};

export function roundRatio({ ours, raw }: ApiRound): number {
  return ours.rps / raw.rps;
}

export function apiRoundFigures(rounds: ReadonlyArray<ApiRound>): ApiRoundFigures {
  const of = (pick: (round: ApiRound) => number) => figure(rounds.map(pick));
  return {
    rounds: rounds.length,
    ratio: of(roundRatio),
    oursRps: of((round) => round.ours.rps),
    rawRps: of((round) => round.raw.rps),
    oursP50: of((round) => round.ours.p50),
    rawP50: of((round) => round.raw.p50),
    oursP99: of((round) => round.ours.p99),
    rawP99: of((round) => round.raw.p99),
    p99LeRawEveryRound: rounds.every((round) => round.ours.p99 <= round.raw.p99),
    stealSeconds: rounds.reduce((sum, round) => sum + round.ours.stealSeconds + round.raw.stealSeconds, 0),
  };
}

/** One line per round: both sides' throughput, latency and steal, and the round's ratio. */
export function formatApiRound(round: number, order: ReadonlyArray<string>, figures: ApiRound): string {
  const side = (name: string, { rps, p50, p99, stealSeconds }: PhaseSummary) =>
    `${name} ${rps.toFixed(0)} req/s p50 ${p50.toFixed(2)} ms p99 ${p99.toFixed(2)} ms ` +
    `steal ${stealSeconds.toFixed(2)} s`;
  return (
    `round ${round + 1} (${order.join('→')}): ${side('ours', figures.ours)} · ${side('raw', figures.raw)} · ` +
    `ratio ${roundRatio(figures).toFixed(2)}`
  );
}

/** The medians and ranges over the rounds. */
export function formatApiFigures(figures: ApiRoundFigures): string[] {
  return [
    `over ${figures.rounds} round${figures.rounds === 1 ? '' : 's'}, median (min–max):`,
    `ours: ${formatFigure(figures.oursRps, 0, 'req/s')}, p50 ${formatFigure(figures.oursP50, 2, 'ms')}, ` +
      `p99 ${formatFigure(figures.oursP99, 2, 'ms')}`,
    `raw:  ${formatFigure(figures.rawRps, 0, 'req/s')}, p50 ${formatFigure(figures.rawP50, 2, 'ms')}, ` +
      `p99 ${formatFigure(figures.rawP99, 2, 'ms')}`,
    `ratio ours ÷ raw: ${formatFigure(figures.ratio)}; ` +
      `steal during the measured phases ${figures.stealSeconds.toFixed(2)} s`,
  ];
}

/** The zipf mix's goals: a median ratio of at least 1.5, and a p99 no worse than raw's in every round. */
export const ZIPF_MIN_RATIO = 1.5;

export function zipfGoals(figures: ApiRoundFigures): Array<{ met: boolean; line: string }> {
  const mark = (met: boolean) => (met ? '✔' : '✘');
  const ratioMet = figures.ratio.median >= ZIPF_MIN_RATIO;
  const slower = figures.oursP99.values
    .map((p99, index) => ({ round: index + 1, over: p99 > (figures.rawP99.values[index] ?? Infinity) }))
    .filter(({ over }) => over)
    .map(({ round }) => round);
  return [
    {
      met: ratioMet,
      line: `${mark(ratioMet)} goal: median ratio ≥ ${ZIPF_MIN_RATIO} (${figures.ratio.median.toFixed(2)})`,
    },
    {
      met: figures.p99LeRawEveryRound,
      line:
        `${mark(figures.p99LeRawEveryRound)} goal: p99 ≤ raw in every round` +
        (slower.length === 0
          ? ''
          : ` (above raw in round${slower.length === 1 ? '' : 's'} ${slower.join(', ')})`),
    },
  ];
}

/** The facets mix's goals: facets cost at most 1.2× the p99 of the same searches, and ours ÷ raw ≥ 0.9. */
export const FACETS_MAX_P99_COST = 1.2;
export const FACETS_MIN_RATIO = 0.9;

/**
 * Each round's p99 of the faceted searches ÷ the p99 of the same searches without facets, both ours
 * (`plain`: the round's phase without facets, one per round).
 */
export function facetsCost(rounds: ReadonlyArray<ApiRound>, plain: ReadonlyArray<PhaseSummary>): Figure {
  if (plain.length !== rounds.length) throw new Error('one phase without facets per round');
  return figure(rounds.map((round, index) => round.ours.p99 / (plain[index] as PhaseSummary).p99));
}

export function facetsGoals(
  figures: ApiRoundFigures,
  cost: Figure,
): { cost: { met: boolean; line: string }; ratio: { met: boolean; line: string } } {
  const mark = (met: boolean) => (met ? '✔' : '✘');
  const costMet = cost.median <= FACETS_MAX_P99_COST;
  const ratioMet = figures.ratio.median >= FACETS_MIN_RATIO;
  return {
    cost: {
      met: costMet,
      line:
        `${mark(costMet)} goal: p99 with facets ÷ without ≤ ${FACETS_MAX_P99_COST} ` +
        `(median ${formatFigure(cost)})`,
    },
    ratio: {
      met: ratioMet,
      line: `${mark(ratioMet)} goal: median ratio ours ÷ raw ≥ ${FACETS_MIN_RATIO} (${figures.ratio.median.toFixed(2)})`,
    },
  };
}
