import { describe, expect, it } from 'vitest';
import {
  alternateRounds,
  figure,
  formatFigure,
  median,
  parseRounds,
  range,
  resultsOf,
  roundedRange,
  sideOrder,
} from '../../bench/rounds.js';

describe('median and range', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even one', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('gives the smallest and largest value', () => {
    expect(range([3, -1, 8, 2])).toEqual({ min: -1, max: 8 });
  });

  it('refuses no values rather than inventing a figure', () => {
    expect(() => median([])).toThrow(/no values/);
    expect(() => range([])).toThrow(/no values/);
  });

  it('summarises a figure and prints it as "median (min–max)"', () => {
    const summary = figure([2.5, 1, 4]);
    expect(summary).toEqual({ median: 2.5, min: 1, max: 4, values: [2.5, 1, 4] });
    expect(formatFigure(summary)).toBe('2.50 (1.00–4.00)');
    expect(formatFigure(summary, 0, 'req/s')).toBe('3 req/s (1–4)');
    expect(roundedRange(figure([1.234, 5.678]))).toEqual([1.23, 5.68]);
  });
});

describe('alternateRounds', () => {
  it('warms up first, then alternates the order of the sides round by round', async () => {
    const calls: string[] = [];
    const side = (name: string) => ({
      name,
      run: (round: number) => {
        calls.push(`${name}${round}`);
        return Promise.resolve(`${name}-result-${round}`);
      },
    });
    const seen: string[][] = [];
    const rounds = await alternateRounds({
      rounds: 3,
      sides: [side('ours'), side('raw')],
      warmup: () => {
        calls.push('warmup');
        return Promise.resolve();
      },
      afterRound: (round) => {
        seen.push(round.order);
      },
    });
    expect(calls).toEqual(['warmup', 'ours0', 'raw0', 'raw1', 'ours1', 'ours2', 'raw2']);
    expect(seen).toEqual([
      ['ours', 'raw'],
      ['raw', 'ours'],
      ['ours', 'raw'],
    ]);
    expect(resultsOf(rounds, 'raw')).toEqual(['raw-result-0', 'raw-result-1', 'raw-result-2']);
  });

  it('reverses any number of sides in odd rounds', () => {
    expect(sideOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(sideOrder(['a', 'b', 'c'], 1)).toEqual(['c', 'b', 'a']);
  });

  it('refuses no rounds and two sides of one name', async () => {
    const run = () => Promise.resolve(1);
    await expect(alternateRounds({ rounds: 0, sides: [{ name: 'a', run }] })).rejects.toThrow(/rounds/);
    await expect(
      alternateRounds({
        rounds: 1,
        sides: [
          { name: 'a', run },
          { name: 'a', run },
        ],
      }),
    ).rejects.toThrow(/names/);
  });

  it('stops at the first failing run and keeps the rounds already reported', async () => {
    const reported: number[] = [];
    const failing = alternateRounds({
      rounds: 3,
      sides: [
        {
          name: 'ours',
          run: (round) => (round === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(round)),
        },
      ],
      afterRound: (round) => {
        reported.push(round.round);
      },
    });
    await expect(failing).rejects.toThrow('boom');
    expect(reported).toEqual([0]);
  });
});

describe('parseRounds', () => {
  it('defaults to three rounds without a warning', () => {
    const warnings: string[] = [];
    expect(parseRounds(undefined, (line) => warnings.push(line))).toBe(3);
    expect(parseRounds('5', (line) => warnings.push(line))).toBe(5);
    expect(warnings).toEqual([]);
  });

  it('allows fewer than three for a smoke run, with a warning', () => {
    const warnings: string[] = [];
    expect(parseRounds('1', (line) => warnings.push(line))).toBe(1);
    expect(warnings).toEqual([expect.stringContaining('smoke run: fewer than 3 rounds')]);
  });

  it('refuses what is not a whole number of at least one', () => {
    for (const text of ['0', '-2', '1.5', 'three', ''])
      expect(() => parseRounds(text, () => undefined)).toThrow(/--rounds/);
  });
});
