import { describe, expect, it } from 'vitest';
import {
  bytesPerPlace,
  cpuMsPerRequest,
  growthBaseline,
  scaleSummary,
  searchP99Growth,
  workloadFigures,
  type StepFigures,
  type WorkloadFigures,
} from '../../bench/scale-figures.js';
import {
  SEARCH_PHASE_PARTS,
  parseNameList,
  scaleWorkload,
  suggestSequences,
  suggestTexts,
  type SampledRecord,
} from '../../bench/scale-workloads.js';

const latency = (p99: number, rps = 100, cpuMs: Record<string, number> = {}) => ({
  rps,
  p50: p99 / 2,
  p99,
  cpuMs,
});
const workload = (p99: number, ratio = 1): WorkloadFigures => ({
  ours: latency(p99),
  raw: latency(p99),
  ratio,
});

function step(places: number, search: Record<string, WorkloadFigures>, extra: Partial<StepFigures> = {}) {
  return {
    places,
    storage: {
      events: places * 10,
      places,
      eventsBytes: places * 10_000,
      placesBytes: places * 1_000,
      searchBytes: places * 500,
    },
    search,
    ...extra,
  } satisfies StepFigures;
}

describe('workloadFigures', () => {
  it('takes each side’s medians and the median of each round’s ours ÷ raw', () => {
    const figures = workloadFigures([
      { ours: latency(10, 50), raw: latency(8, 100) },
      { ours: latency(30, 90), raw: latency(9, 100) },
      { ours: latency(20, 80), raw: latency(7, 100) },
    ]);
    expect(figures.ours.p99).toBe(20);
    expect(figures.raw.p99).toBe(8);
    expect(figures.ours.rps).toBe(80);
    expect(figures.ratio).toBeCloseTo(0.8);
  });

  it('takes the median CPU a request of each part, a part missing from a round counting 0 there', () => {
    const figures = workloadFigures([
      { ours: latency(10, 50, { api: 1, elasticsearch: 2 }), raw: latency(8, 100, { elasticsearch: 1 }) },
      { ours: latency(30, 90, { api: 3, redis: 0.2 }), raw: latency(9, 100, { elasticsearch: 3 }) },
      { ours: latency(20, 80, { api: 2, elasticsearch: 4 }), raw: latency(7, 100, { elasticsearch: 2 }) },
    ]);
    expect(figures.ours.cpuMs).toEqual({ api: 2, elasticsearch: 2, redis: 0 });
    expect(figures.raw.cpuMs).toEqual({ elasticsearch: 2 });
  });
});

describe('cpuMsPerRequest', () => {
  it('divides each part’s CPU seconds over the requests, leaving out parts that used none', () => {
    const byPart = new Map([
      ['api', 0.5],
      ['elasticsearch', 1.5],
      ['redis', 0],
    ]);
    expect(cpuMsPerRequest(byPart, 1_000)).toEqual({ api: 0.5, elasticsearch: 1.5 });
    expect(cpuMsPerRequest(byPart, 0)).toEqual({});
  });
});

describe('growthBaseline and searchP99Growth', () => {
  it('measures growth from the non-empty size nearest 100,000 places, on the worst workload', () => {
    const steps = [step(0, {}), step(50_000, {}), step(150_000, { literal: workload(10), geo: workload(4) })];
    expect(growthBaseline(steps)?.places).toBe(150_000);
    expect(growthBaseline([step(0, {})])).toBeUndefined();
    const full = step(1_000_000, { literal: workload(15), geo: workload(8) });
    expect(searchP99Growth(full, steps[2] as StepFigures)).toBe(2);
  });
});

describe('scaleSummary', () => {
  it('compares the full size with the empty store and the baseline, and leaves what was not measured null', () => {
    const steps = [
      step(0, {}, { ingestEventsPerSecond: 1_000 }),
      step(100_000, { literal: workload(10, 0.9), count: workload(20, 0.95) }),
      step(
        400_000,
        { literal: workload(12, 0.7), count: workload(30, 0.8) },
        {
          ingestEventsPerSecond: 800,
          export: { records: 100_000, seconds: 4, apiRssMb: 120.4, longestTransactionSeconds: 0.5 },
          replay: { seconds: 100, rssMb: 200, busy: 0.9, cpuRatio: null },
        },
      ),
    ];
    expect(scaleSummary(steps)).toMatchObject({
      places: 400_000,
      growth_baseline_places: 100_000,
      ingest_ratio_full_vs_empty: 0.8,
      search_p99_growth: 1.5,
      search_ratio_min: 0.7,
      export_records_per_s: 25_000,
      export_api_rss_mb: 120,
      export_longest_tx_s: 0.5,
      replay_rss_mb: 200,
      replay_busy: 0.9,
      replay_cpu_ratio: null,
      bytes_per_event: 1_000,
      bytes_per_place: 1_500,
    });
    expect(scaleSummary([step(1_000, {})]).ingest_ratio_full_vs_empty).toBeNull();
    // The typeahead is one of the search workloads: the worst growth and ratio may be its.
    const withSuggest = [
      step(100_000, { literal: workload(10, 0.9), suggest: workload(4, 2) }),
      step(400_000, { literal: workload(12, 0.8), suggest: workload(10, 0.6) }),
    ];
    expect(scaleSummary(withSuggest)).toMatchObject({
      search_p99_growth: 2.5,
      search_ratio_min: 0.6,
      suggest_cache_answered: null,
    });
    // The typeahead's searches answered by the hot-query cache, at the full size.
    const cachedSuggest = {
      ...workload(10, 0.6),
      cache: { outcomes: { hit: 30, coalesced: 10, miss: 60 }, requests: 40 },
    };
    expect(scaleSummary([step(400_000, { suggest: cachedSuggest })]).suggest_cache_answered).toBe(0.4);
    expect(bytesPerPlace(step(0, {}).storage)).toBeNull();
  });
});

const SAMPLE: SampledRecord[] = [
  {
    id: 'a',
    country: 'de',
    citySlug: 'berlin',
    nameWord: 'praxis',
    location: { lat: 52.5, lon: 13.4 },
    name: 'Praxis Dr. Weber',
    cityName: 'Berlin',
    specialtyCodes: ['cardiology'],
  },
  {
    id: 'b',
    country: 'es',
    citySlug: 'madrid',
    nameWord: 'clinica',
    location: null,
    name: 'Clínica García',
    cityName: 'Madrid',
    specialtyCodes: ['acupuncture', 'cardiology'],
  },
];

describe('the last line', () => {
  // What a full-size run is read by: every key present, measured or null.
  const REQUIRED_KEYS = [
    'ingest_ratio_full_vs_empty',
    'search_p99_growth',
    'search_ratio_min',
    'export_records_per_s',
    'export_api_rss_mb',
    'export_longest_tx_s',
    'replay_rss_mb',
    'replay_busy',
    'replay_cpu_ratio',
    'bytes_per_event',
    'bytes_per_place',
  ];

  it('carries every key, measured or null, and the replay’s CPU ÷ the floor’s when the floor ran', () => {
    const measuredRun = scaleSummary([
      step(0, {}, { ingestEventsPerSecond: 1_000 }),
      step(
        20_000,
        { literal: workload(12, 0.7), suggest: workload(5, 1.5) },
        {
          ingestEventsPerSecond: 900,
          export: { records: 5_000, seconds: 1, apiRssMb: 100, longestTransactionSeconds: 0.2 },
          replay: { seconds: 10, rssMb: 150, busy: 0.8, cpuRatio: 1.2346 },
        },
      ),
    ]);
    for (const key of REQUIRED_KEYS) expect(measuredRun[key], key).toEqual(expect.any(Number));
    expect(measuredRun.replay_cpu_ratio).toBe(1.235);
    const bare = scaleSummary([step(1_000, {})]);
    for (const key of REQUIRED_KEYS) expect(bare, key).toHaveProperty(key);
  });
});

describe('parseNameList (--phases, --workloads)', () => {
  const workloads = (value: string) => parseNameList('--workloads', SEARCH_PHASE_PARTS, value);
  it('takes a subset of the search phase by name, and refuses an unknown or empty name', () => {
    expect([...workloads('suggest, geo')]).toEqual(['suggest', 'geo']);
    expect([...workloads(SEARCH_PHASE_PARTS.join(','))]).toEqual([...SEARCH_PHASE_PARTS]);
    expect(() => workloads('suggest,typeahead')).toThrow(/not "typeahead"/);
    expect(() => workloads('')).toThrow(/--workloads takes literal, /);
  });
});

describe('scaleWorkload', () => {
  const sample = SAMPLE;

  it('draws the same requests for the same seed, each from a sampled record', () => {
    expect(scaleWorkload('literal', sample, 20, 3)).toEqual(scaleWorkload('literal', sample, 20, 3));
    for (const task of scaleWorkload('count', sample, 20, 3)) {
      expect(task).toMatchObject({ kind: 'search', count: true });
      if (task.kind === 'search') expect(['praxis', 'clinica']).toContain(task.filters.q);
    }
    expect(scaleWorkload('get', sample, 5, 1).every((task) => task.kind === 'get')).toBe(true);
  });

  it('sends geo and bbox searches around located records only', () => {
    for (const task of scaleWorkload('bbox', sample, 10, 2)) {
      if (task.kind !== 'search') throw new Error('a bbox workload sends searches');
      expect(task.filters.country).toBe('de');
      expect(task.filters.bbox?.west).toBeCloseTo(13.35);
      expect(task.filters.bbox?.north).toBeCloseTo(52.55);
    }
    expect(scaleWorkload('geo', [], 10, 2)).toEqual([]);
  });
});

describe('suggestSequences', () => {
  it('types each dataset’s own names, surnames, cities and specialty labels (in its language)', () => {
    expect(suggestTexts(SAMPLE).get('es')).toEqual({
      names: ['Clínica García'],
      cities: ['Madrid'],
      specialties: ['Acupuntura', 'Cardiología'],
    });
    const texts: Record<string, string[]> = {
      de: ['Praxis Dr. Weber', 'Weber', 'Berlin', 'Kardiologie'],
      es: ['Clínica García', 'García', 'Madrid', 'Acupuntura', 'Cardiología'],
    };
    const sequences = suggestSequences(SAMPLE, 500, 7);
    const typed = new Set<string>();
    for (const { country, keystrokes } of sequences) {
      keystrokes.forEach((q, index) => expect(q).toHaveLength(index + 1));
      const text = texts[country]?.find((candidate) => candidate.startsWith(keystrokes.at(-1) ?? '?'));
      expect(text, `${country}: ${keystrokes.at(-1)}`).toBeDefined();
      typed.add(`${country}:${text}`);
    }
    // Every kind of text is drawn, in both datasets.
    expect(typed.size).toBeGreaterThanOrEqual(8);
  });

  it('draws exactly the keystrokes asked for, the same for the same seed', () => {
    const sequences = suggestSequences(SAMPLE, 101, 3);
    expect(sequences.reduce((sum, sequence) => sum + sequence.keystrokes.length, 0)).toBe(101);
    expect(suggestSequences(SAMPLE, 101, 3)).toEqual(sequences);
    expect(suggestSequences(SAMPLE, 101, 4)).not.toEqual(sequences);
    expect(suggestSequences([], 10, 1)).toEqual([]);
  });
});
