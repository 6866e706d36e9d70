import { describe, expect, it } from 'vitest';
import { parsePlaceEvent, specialtyCodeOf, type PlaceEvent } from '@directory/domain';
import { generateEvents } from '../src/generate-events.js';
import { LOCALES } from '../src/locales.js';

type CrawledEvent = Extract<PlaceEvent, { type: 'place.crawled' }>;

// Every label the sample data can publish must have a code, or `specialty=` would miss sample records.
describe('sample-data labels and the specialty vocabulary', () => {
  it.each(LOCALES.map((locale) => [locale.dataset, locale] as const))(
    'maps every primary type and specialty of the %s locale to a code',
    (_dataset, locale) => {
      const labels = [
        locale.dentalType,
        ...locale.primaryTypes,
        ...locale.specialties,
        ...locale.dentalSpecialties,
      ];
      const unmapped = labels.filter((label) => specialtyCodeOf(label) === null);
      expect(unmapped).toEqual([]);
    },
  );

  it('maps the dental type to dentistry and no other primary type to it', () => {
    for (const locale of LOCALES) {
      expect(specialtyCodeOf(locale.dentalType), locale.dataset).toBe('dentistry');
      for (const label of locale.primaryTypes) expect(specialtyCodeOf(label), label).not.toBe('dentistry');
    }
  });

  it('maps every label a generated stream publishes', () => {
    const crawled = [...generateEvents({ count: 2_000, seed: 14 })]
      .map((event) => parsePlaceEvent(event))
      .flatMap((result) => (result.ok ? [result.value] : []))
      .filter((event): event is CrawledEvent => event.type === 'place.crawled');
    expect(crawled.length).toBeGreaterThan(500);
    const labels = new Set(
      crawled.flatMap(({ payload: { observed } }) => [observed.primaryType, ...observed.specialties]),
    );
    const unmapped = [...labels].filter((label) => label !== null && specialtyCodeOf(label) === null);
    expect(unmapped).toEqual([]);
  });
});
