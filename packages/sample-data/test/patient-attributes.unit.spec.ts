import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_CODES,
  LIVE_COUNTRY_CODES,
  insuranceCodesOf,
  parsePlaceEvent,
  patientAttributesOf,
  type CountryCode,
  type PlaceEvent,
} from '@directory/domain';
import { citiesOf } from '../src/cities.js';
import { generateEvents } from '../src/generate-events.js';
import { LOCALES } from '../src/locales.js';

type CrawledEvent = Extract<PlaceEvent, { type: 'place.crawled' }>;
type Observed = CrawledEvent['payload']['observed'];

const ATTRIBUTES = ['languages', 'acceptingNewPatients', 'wheelchairAccessible', 'insurance'] as const;

const crawled = [...generateEvents({ count: 8_000, seed: 77 })]
  .map((event) => parsePlaceEvent(event))
  .flatMap((result): CrawledEvent[] =>
    result.ok && result.value.type === 'place.crawled' ? [result.value] : [],
  );
const datasetOf = new Map(LOCALES.map((locale) => [locale.isoCountry, locale.dataset]));
const languageOf = new Map(LOCALES.map((locale) => [locale.dataset, locale.language]));

function crawlsOf(dataset: CountryCode): Observed[] {
  return crawled
    .map((event) => event.payload.observed)
    .filter((observed) => datasetOf.get(String(observed.address.country)) === dataset);
}

/** The population of the largest city of that name, enough to tell big cities from villages. */
function populationOf(isoCountry: string): (name: string) => number {
  const populations = new Map<string, number>();
  for (const city of citiesOf(isoCountry).cities)
    populations.set(city.name, Math.max(populations.get(city.name) ?? 0, city.population));
  return (name) => populations.get(name) ?? 0;
}

describe('patient attributes in sample crawls', () => {
  it('use only codes of the lists: ISO 639-1 languages, the country’s insurance codes, each once', () => {
    expect(crawled.length).toBeGreaterThan(2_000);
    const languages = new Set<string>(LANGUAGE_CODES);
    for (const { payload } of crawled) {
      const observed = payload.observed;
      const dataset = datasetOf.get(String(observed.address.country)) as CountryCode;
      const insurance = new Set(insuranceCodesOf(dataset));
      if (Array.isArray(observed.languages)) {
        expect(observed.languages.length).toBeGreaterThan(0);
        expect(new Set(observed.languages).size).toBe(observed.languages.length);
        for (const code of observed.languages) expect(languages, code).toContain(code);
      }
      if (Array.isArray(observed.insurance)) {
        expect(observed.insurance.length).toBeGreaterThan(0);
        expect(new Set(observed.insurance).size).toBe(observed.insurance.length);
        for (const code of observed.insurance) expect(insurance, `${dataset} ${code}`).toContain(code);
      }
      for (const key of ['acceptingNewPatients', 'wheelchairAccessible'] as const)
        expect([true, false, null, undefined]).toContain(observed[key]);
      // The domain keeps every code the generator writes.
      const served = patientAttributesOf(observed, dataset);
      expect(served.languages.length).toBe(observed.languages?.length ?? 0);
      expect(served.insurance.length).toBe(observed.insurance?.length ?? 0);
    }
  });

  it.each(LIVE_COUNTRY_CODES)(
    '%s: leaves each attribute unknown for a realistic share, both left out and null',
    (dataset) => {
      const crawls = crawlsOf(dataset);
      expect(crawls.length).toBeGreaterThan(300);
      for (const key of ATTRIBUTES) {
        const missing = crawls.filter((observed) => !(key in observed)).length;
        const nulls = crawls.filter((observed) => observed[key] === null).length;
        const unknownShare = (missing + nulls) / crawls.length;
        expect(unknownShare, key).toBeGreaterThan(0.05);
        expect(unknownShare, key).toBeLessThan(0.5);
        expect(missing, key).toBeGreaterThan(0);
        expect(nulls, key).toBeGreaterThan(0);
      }
      for (const key of ['acceptingNewPatients', 'wheelchairAccessible'] as const) {
        expect(
          crawls.some((observed) => observed[key] === true),
          key,
        ).toBe(true);
        expect(
          crawls.some((observed) => observed[key] === false),
          key,
        ).toBe(true);
      }
    },
  );

  it.each(LIVE_COUNTRY_CODES)('%s: lists the country’s language on nearly every known list', (dataset) => {
    const lists = crawlsOf(dataset).flatMap((observed) => (observed.languages ? [observed.languages] : []));
    const withOwn = lists.filter((list) => list.includes(languageOf.get(dataset) as string));
    expect(withOwn.length / lists.length).toBeGreaterThan(0.95);
    expect(lists.some((list) => list.length > 2)).toBe(true);
  });

  it('lists English more often in big cities than in small towns', () => {
    const share = (lists: ReadonlyArray<ReadonlyArray<string>>) =>
      lists.filter((list) => list.includes('en')).length / lists.length;
    const big: string[][] = [];
    const small: string[][] = [];
    for (const dataset of LIVE_COUNTRY_CODES) {
      const isoCountry = dataset.toUpperCase();
      const population = populationOf(isoCountry);
      for (const observed of crawlsOf(dataset)) {
        if (!observed.languages) continue;
        const people = population(String(observed.address.city));
        if (people >= 200_000) big.push([...observed.languages]);
        if (people < 10_000) small.push([...observed.languages]);
      }
    }
    expect(big.length).toBeGreaterThan(100);
    expect(small.length).toBeGreaterThan(100);
    expect(share(big)).toBeGreaterThan(share(small) + 0.15);
  });

  it('de: most practices take both statutory and private insurance, some private only', () => {
    const lists = crawlsOf('de').flatMap((observed) => (observed.insurance ? [observed.insurance] : []));
    const both = lists.filter((list) => list.includes('gkv') && list.includes('pkv')).length;
    const privateOnly = lists.filter((list) => list.length === 1 && list[0] === 'pkv').length;
    expect(both + privateOnly).toBe(lists.length);
    expect(both / lists.length).toBeGreaterThan(0.75);
    expect(privateOnly / lists.length).toBeGreaterThan(0.03);
  });

  it.each(['es', 'it', 'pt'] as const)('%s: uses every insurance code of the country', (dataset) => {
    const used = new Set(crawlsOf(dataset).flatMap((observed) => observed.insurance ?? []));
    expect([...used].sort()).toEqual([...insuranceCodesOf(dataset)].sort());
  });

  it('writes the same attributes for the same seed', () => {
    const attributesOf = (seed: number) =>
      JSON.stringify(
        [...generateEvents({ count: 1_000, seed })].map((event) => {
          const payload = event['payload'] as { observed?: Record<string, unknown> } | undefined;
          return ATTRIBUTES.map((key) => payload?.observed?.[key]);
        }),
      );
    const first = attributesOf(5);
    expect(first).toContain('true');
    expect(attributesOf(5)).toBe(first);
    expect(attributesOf(6)).not.toBe(first);
  });
});
