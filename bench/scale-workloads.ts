// The requests of `bench:scale`, drawn from served records of the store under test (a sample read
// before each size's measurements), so every workload finds what it asks for at every size. Pure and
// seeded: the same sample and seed give the same requests.
import type { CountryCode, SearchFilters } from '@directory/domain';
import type { Task } from './api-workload.js';
import { createRandom } from './seeded-random.js';
import {
  drawSequence,
  specialtyLabels,
  type SuggestSequence,
  type SuggestTexts,
} from './suggest-workload.js';

/**
 * What one sampled served record offers a request: its id, dataset, a word of its name, its location;
 * and what a user may type in the typeahead: its name, its city's name, its specialty codes.
 */
export type SampledRecord = {
  id: string;
  country: CountryCode;
  citySlug: string;
  nameWord: string;
  location: { lat: number; lon: number } | null;
  name: string;
  cityName: string | null;
  specialtyCodes: ReadonlyArray<string>;
};

export const SCALE_WORKLOADS = ['literal', 'relevance', 'geo', 'bbox', 'count', 'get'] as const;
export type ScaleWorkload = (typeof SCALE_WORKLOADS)[number];

/** What the search phase measures, in its order: the searches, the typeahead, the API's floor, a feed page. */
export const SEARCH_PHASE_PARTS = [...SCALE_WORKLOADS, 'suggest', 'floor', 'feed'] as const;
export type SearchPhasePart = (typeof SEARCH_PHASE_PARTS)[number];

/**
 * A comma-separated subset of `known` given to `option` (`--phases`, `--workloads`): the names to run,
 * so one measurement can be taken again without the others. Unknown or no names throw.
 */
export function parseNameList<Name extends string>(
  option: string,
  known: ReadonlyArray<Name>,
  value: string,
): ReadonlySet<Name> {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(known as ReadonlyArray<string>).includes(name));
  if (unknown !== undefined)
    throw new Error(`${option} takes ${known.join(', ')}; not ${JSON.stringify(unknown)}`);
  return new Set(names as Name[]);
}

/** Half the side of a bbox, in degrees: about a city's viewport (±5 km of latitude). */
const BBOX_HALF_DEGREES = 0.05;
const RADII = [2_000, 10_000, 50_000];

/** Degrees as a query string takes them: at most ten decimals (a sum's float noise has more). */
const degrees = (value: number): number => Math.round(value * 1e6) / 1e6;

/** `requests` first pages of one workload (a get is one request), drawn from the sampled records. */
export function scaleWorkload(
  workload: ScaleWorkload,
  sample: ReadonlyArray<SampledRecord>,
  requests: number,
  seed: number,
): Task[] {
  if (sample.length === 0) return [];
  const random = createRandom(seed);
  const located = sample.filter((record) => record.location !== null);
  return Array.from({ length: requests }, (): Task => {
    const record = random.pick(sample);
    const filters: SearchFilters = { country: record.country };
    const search = (extra: Partial<Extract<Task, { kind: 'search' }>> = {}): Task => ({
      kind: 'search',
      filters,
      limit: 25,
      pages: 1,
      ...extra,
    });
    switch (workload) {
      case 'get':
        return { kind: 'get', id: record.id };
      case 'literal':
        filters.q = record.nameWord;
        return search();
      case 'count':
        filters.q = record.nameWord;
        filters.city = record.citySlug;
        return search({ count: true });
      case 'relevance':
        filters.q = record.nameWord;
        return search({ sort: 'relevance' });
      case 'geo':
      case 'bbox': {
        const { location, country } = located.length > 0 ? random.pick(located) : record;
        if (location === null) return search();
        filters.country = country;
        if (workload === 'geo') {
          filters.near = location;
          filters.radius = random.pick(RADII);
        } else
          filters.bbox = {
            west: degrees(location.lon - BBOX_HALF_DEGREES),
            south: degrees(location.lat - BBOX_HALF_DEGREES),
            east: degrees(location.lon + BBOX_HALF_DEGREES),
            north: degrees(location.lat + BBOX_HALF_DEGREES),
          };
        return search();
      }
    }
  });
}

/** Each dataset's texts to type, from the sampled records of that dataset. */
export function suggestTexts(sample: ReadonlyArray<SampledRecord>): Map<CountryCode, SuggestTexts> {
  const byCountry = new Map<CountryCode, SampledRecord[]>();
  for (const record of sample) {
    const records = byCountry.get(record.country) ?? [];
    records.push(record);
    byCountry.set(record.country, records);
  }
  return new Map(
    [...byCountry].map(([country, records]) => {
      const names = records.flatMap((record) => (record.name.trim() === '' ? [] : [record.name]));
      const cities = [...new Set(records.flatMap((record) => (record.cityName ? [record.cityName] : [])))];
      const specialties = specialtyLabels(
        country,
        records.flatMap((record) => record.specialtyCodes),
      );
      return [country, { names, cities: cities.length > 0 ? cities : names, specialties }];
    }),
  );
}

/**
 * Typeahead users, as `bench:suggest` draws them, typing the sampled records' own texts: each sequence's
 * dataset is a sampled record's (so datasets weigh as in the store), its text drawn from that dataset's
 * records. Sequences are drawn until they hold `keystrokes` keystrokes (the last one cut short).
 */
export function suggestSequences(
  sample: ReadonlyArray<SampledRecord>,
  keystrokes: number,
  seed: number,
): SuggestSequence[] {
  const texts = suggestTexts(sample);
  const typable = sample.filter((record) => (texts.get(record.country)?.names.length ?? 0) > 0);
  const random = createRandom(seed);
  const sequences: SuggestSequence[] = [];
  let typed = 0;
  // Bounded: a text may leave no keystroke (a name ending in a space has a blank surname).
  for (let draws = 0; typed < keystrokes && typable.length > 0 && draws < keystrokes * 10; draws += 1) {
    const { country } = random.pick(typable);
    const sequence = drawSequence(random, country, texts.get(country) as SuggestTexts);
    const kept = sequence.keystrokes.slice(0, keystrokes - typed);
    if (kept.length === 0) continue;
    sequences.push({ country, keystrokes: kept });
    typed += kept.length;
  }
  return sequences;
}
