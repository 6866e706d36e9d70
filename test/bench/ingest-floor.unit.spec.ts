import { describe, expect, it } from 'vitest';
import { crawled } from '@directory/testing';
import {
  cpuRatio,
  floorBulkBody,
  ingestGoalLines,
  perThousandEvents,
  planFloorBatches,
  roundFigures,
  type RoundFigures,
} from '../../bench/ingest-floor.js';

/** A valid event as an NDJSON line, its id `<placeId>-crawl-<n>`. */
function line(placeId: string, n: number): string {
  return JSON.stringify(crawled(placeId, n, '2026-01-01T00:00:00.000Z'));
}

describe('planFloorBatches', () => {
  it('cuts the lines as the producer does and keeps, per batch, the places it gave a new event', () => {
    const lines = [
      line('place-a', 1),
      line('place-a', 2),
      line('place-b', 3),
      line('place-c', 4),
      line('place-a', 5),
    ];
    const batches = planFloorBatches(lines, 2);
    expect(batches.map((batch) => batch.events.length)).toEqual([2, 2, 1]);
    // One document per place per batch, however many of its events the batch holds.
    expect(batches.map((batch) => batch.placeIds)).toEqual([
      ['place-a'],
      ['place-b', 'place-c'],
      ['place-a'],
    ]);
  });

  it('counts repeats and invalid lines in their batch, but neither asks for a document', () => {
    const first = line('place-a', 1);
    const lines = [first, 'not json', '', first, line('place-b', 2)];
    const batches = planFloorBatches(lines, 2);
    // The blank line is skipped, as the producer skips it; the invalid one fills a slot of its batch.
    expect(batches.map((batch) => batch.events.length)).toEqual([1, 2]);
    expect(batches.map((batch) => batch.placeIds)).toEqual([['place-a'], ['place-b']]);
  });
});

describe('floorBulkBody', () => {
  it('writes one plain index action per place with its prepared document, as NDJSON', () => {
    const body = floorBulkBody(
      'floor-index',
      ['a', 'b'],
      new Map([
        ['a', '{"name":"A"}'],
        ['b', '{"name":"B"}'],
      ]),
    );
    expect(body.toString('utf8')).toBe(
      '{"index":{"_index":"floor-index","_id":"a"}}\n{"name":"A"}\n' +
        '{"index":{"_index":"floor-index","_id":"b"}}\n{"name":"B"}\n',
    );
  });

  it('refuses a place it has no document for', () => {
    expect(() => floorBulkBody('i', ['missing'], new Map())).toThrow(/missing/);
  });
});

describe('cpuRatio', () => {
  it('divides ours by the floor plus the required steps, all per 1,000 events', () => {
    const ours = perThousandEvents(6, 5_000);
    const floor = perThousandEvents(2, 5_000);
    const requiredSteps = perThousandEvents(3, 5_000);
    expect(ours).toBeCloseTo(1.2);
    expect(cpuRatio({ ours, floor, requiredSteps })).toBeCloseTo(1.2);
  });
});

describe('ingestGoalLines', () => {
  it('marks each goal met or not from the medians', () => {
    expect(ingestGoalLines({ cpuRatio: 1.15, oursEventsPerSecond: 3_000, ratioFloor: 0.4 })).toEqual([
      '✔ cpu_ratio 1.150 ≤ 1.15',
      '✔ ours 3000 events/s ≥ 3000 (median)',
      '  ratio_floor 0.400 (reported, no goal)',
    ]);
    const missed = ingestGoalLines({ cpuRatio: 1.2, oursEventsPerSecond: 2_999, ratioFloor: 0.4 });
    expect(missed[0]).toMatch(/^✘ cpu_ratio/);
    expect(missed[1]).toMatch(/^✘ ours 2999/);
  });
});

describe('roundFigures', () => {
  it('turns one round of phases into rates, CPU per 1,000 events, the ratios and the best case', () => {
    const figures = roundFigures(
      {
        ours: { seconds: 10, cpuSeconds: 12, stealSeconds: 0.5 },
        floor: { seconds: 4, cpuSeconds: 3, stealSeconds: 0.25 },
        raw: { seconds: 2, cpuSeconds: 2, stealSeconds: 0 },
      },
      { events: 10_000, rawEvents: 9_000, requiredCpuSeconds: 5, cores: 2 },
    );
    const expected: RoundFigures = {
      ours: 1_000,
      floor: 2_500,
      raw: 4_500,
      ratio: 1_000 / 4_500,
      ratioFloor: 0.4,
      oursCpu: 1.2,
      floorCpu: 0.3,
      // 1.2 / (0.3 + 0.5)
      cpuRatio: 1.5,
      // The floor's 3 s and the steps' 5 s on two cores: 4 s, as long as the floor took.
      bestRatioFloor: 1,
      stealSeconds: 0.75,
    };
    expect(Object.keys(figures).sort()).toEqual(Object.keys(expected).sort());
    // To 10 digits: divisions of round numbers.
    for (const [name, value] of Object.entries(expected))
      expect(figures[name as keyof RoundFigures], name).toBeCloseTo(value, 10);
  });
});
