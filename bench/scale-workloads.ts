// The requests of `bench:scale`, drawn from served records of the store under test (a sample read
// before each size's measurements), so every workload finds what it asks for at every size. Pure and
// seeded: the same sample and seed give the same requests.
import type { CountryCode, SearchFilters } from '@directory/domain';
import type { Task } from './api-workload.js';
import { createRandom } from './seeded-random.js';

/** What one sampled served record offers a request: its id, dataset, a word of its name, its location. */
export type SampledRecord = {
  id: string;
  country: CountryCode;
  citySlug: string;
  nameWord: string;
  location: { lat: number; lon: number } | null;
};

export const SCALE_WORKLOADS = ['literal', 'relevance', 'geo', 'bbox', 'count', 'get'] as const;
export type ScaleWorkload = (typeof SCALE_WORKLOADS)[number];

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
