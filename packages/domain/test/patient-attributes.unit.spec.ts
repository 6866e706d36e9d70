import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOCTOR_EXTRA_KEYS, toDoctorExtras } from '../src/places/doctor-extras.js';
import { toDoctor } from '../src/places/doctor.js';
import { LIVE_COUNTRY_CODES, parsePlaceEvent, type Observed } from '../src/events/events.js';
import {
  INSURANCE_CODES,
  INSURANCE_CODES_BY_COUNTRY_TEXT,
  INSURANCE_SCHEMES,
  LANGUAGE_CODES,
  insuranceCodesOf,
  patientAttributesOf,
  patientAttributesSchema,
} from '../src/events/patient-attributes.js';
import { foldPlace } from '../src/places/place-fold.js';
import { toSearchDocument } from '../src/search/search-document.js';
import {
  PLACE_ID,
  PUBLICATION,
  SITE_ORIGIN,
  crawlMetadata,
  makeEvent,
  observed,
  servedState,
} from './fixtures.js';

const UNKNOWN = { languages: [], acceptingNewPatients: null, wheelchairAccessible: null, insurance: [] };

const crawlEvent = (overrides: Partial<Observed>) => ({
  eventId: 'evt-1',
  placeId: PLACE_ID,
  type: 'place.crawled',
  occurredAt: '2024-05-01T10:00:00Z',
  schemaVersion: 1,
  payload: { observed: observed(overrides), crawl: crawlMetadata() },
});

function reasonFor(raw: unknown): string {
  const result = parsePlaceEvent(raw);
  if (result.ok) throw new Error('expected the event to be rejected');
  return result.error;
}

describe('the code lists', () => {
  it('has an insurance list for exactly the live datasets', () => {
    expect(Object.keys(INSURANCE_SCHEMES).sort()).toEqual([...LIVE_COUNTRY_CODES].sort());
  });

  it('has lowercase codes, unique within a country, each with a name and a description', () => {
    for (const [country, schemes] of Object.entries(INSURANCE_SCHEMES)) {
      const codes = schemes.map((scheme) => scheme.code);
      expect(new Set(codes).size, country).toBe(codes.length);
      for (const scheme of schemes) {
        expect(scheme.code).toMatch(/^[a-z]{2,16}$/);
        expect(scheme.name.length).toBeGreaterThan(0);
        expect(scheme.description).toMatch(/^[A-Z].*\.$/);
      }
    }
  });

  it('lists every insurance code once, sorted', () => {
    const all = Object.values(INSURANCE_SCHEMES).flatMap((schemes) => schemes.map((scheme) => scheme.code));
    expect(INSURANCE_CODES).toEqual([...new Set(all)].sort());
  });

  it('has two-letter language codes, sorted, each once', () => {
    for (const code of LANGUAGE_CODES) expect(code).toMatch(/^[a-z]{2}$/);
    expect([...LANGUAGE_CODES]).toEqual([...new Set(LANGUAGE_CODES)].sort());
  });

  it("gives a dataset's own insurance codes in table order, none for a dataset without live data", () => {
    expect(insuranceCodesOf('de')).toEqual(['gkv', 'pkv']);
    expect(insuranceCodesOf('pt')).toEqual(['sns', 'adse']);
    expect(insuranceCodesOf('fr')).toEqual([]);
    expect(insuranceCodesOf('constructor')).toEqual([]);
  });

  it('describes the codes by country from the table', () => {
    expect(INSURANCE_CODES_BY_COUNTRY_TEXT).toBe(
      'de: gkv, pkv; es: sns, muface, isfas, mugeju; it: ssn; pt: sns, adse',
    );
  });
});

describe('patientAttributesOf', () => {
  it('reads a crawl without the attributes as unknown', () => {
    expect(patientAttributesOf(observed(), 'de')).toEqual(UNKNOWN);
    expect(
      patientAttributesOf(
        { languages: null, acceptingNewPatients: null, wheelchairAccessible: null, insurance: null },
        'de',
      ),
    ).toEqual(UNKNOWN);
  });

  it('keeps known codes, lowercased, trimmed, each once, sorted; drops the rest', () => {
    const attributes = patientAttributesOf(
      {
        languages: ['EN', ' de ', 'en', 'Klingon', 'xx', '', 'english', 'pt-BR', 'zh_Hant'],
        acceptingNewPatients: true,
        wheelchairAccessible: false,
        insurance: ['PKV', 'gkv', 'GKV', 'aok', 'sns'],
      },
      'de',
    );
    expect(attributes).toEqual({
      languages: ['de', 'en', 'pt', 'zh'],
      acceptingNewPatients: true,
      wheelchairAccessible: false,
      insurance: ['gkv', 'pkv'],
    });
    expect(patientAttributesSchema.parse(attributes)).toEqual(attributes);
  });

  it("keeps only the dataset's own insurance codes: the same letters mean another scheme elsewhere", () => {
    const insurance = ['sns', 'adse', 'gkv', 'ssn', 'muface'];
    expect(patientAttributesOf({ insurance }, 'es').insurance).toEqual(['muface', 'sns']);
    expect(patientAttributesOf({ insurance }, 'pt').insurance).toEqual(['adse', 'sns']);
    expect(patientAttributesOf({ insurance }, 'it').insurance).toEqual(['ssn']);
    expect(patientAttributesOf({ insurance, languages: ['fr'] }, 'fr')).toEqual({
      ...UNKNOWN,
      languages: ['fr'],
    });
  });

  it('reads anything but the declared shape as unknown (a crawl stored before the fields were declared)', () => {
    // The crawl schema was loose: such a crawl may hold anything under these names, and stored events
    // are folded as stored.
    expect(
      patientAttributesOf(
        {
          languages: 'de, en',
          acceptingNewPatients: 'yes',
          wheelchairAccessible: 1,
          insurance: { gkv: true },
        },
        'de',
      ),
    ).toEqual(UNKNOWN);
    expect(patientAttributesOf({ languages: ['de', 7, null, { code: 'en' }] }, 'de').languages).toEqual([
      'de',
    ]);
  });

  it('always gives the served shape, whatever the crawl held', () => {
    const anything = fc.oneof(fc.constant(undefined), fc.constant(null), fc.anything());
    fc.assert(
      fc.property(
        fc.record({
          languages: fc.oneof(anything, fc.array(fc.oneof(fc.constantFrom(...LANGUAGE_CODES), fc.string()))),
          acceptingNewPatients: fc.oneof(anything, fc.boolean()),
          wheelchairAccessible: fc.oneof(anything, fc.boolean()),
          insurance: fc.oneof(anything, fc.array(fc.oneof(fc.constantFrom(...INSURANCE_CODES), fc.string()))),
        }),
        fc.constantFrom('de', 'es', 'it', 'pt', 'fr'),
        (crawled, country) => {
          const attributes = patientAttributesOf(crawled, country);
          expect(patientAttributesSchema.safeParse(attributes).success).toBe(true);
          for (const code of attributes.insurance) expect(insuranceCodesOf(country)).toContain(code);
          expect(attributes.languages).toEqual([...new Set(attributes.languages)].sort());
        },
      ),
    );
  });
});

describe('crawl events with the attributes', () => {
  it('accepts a crawl with them, with nulls, and without them (every crawl before API 1.3)', () => {
    const withThem = parsePlaceEvent(
      crawlEvent({
        languages: ['de', 'EN', 'Klingon'],
        acceptingNewPatients: false,
        wheelchairAccessible: true,
        insurance: ['gkv', 'unknown-fund'],
      }),
    );
    expect(withThem.ok).toBe(true);
    if (withThem.ok && withThem.value.type === 'place.crawled') {
      // Stored as sent: codes are read, not rewritten, so a later list can recognise more of them.
      expect(withThem.value.payload.observed.languages).toEqual(['de', 'EN', 'Klingon']);
    }
    const nulls = {
      languages: null,
      acceptingNewPatients: null,
      wheelchairAccessible: null,
      insurance: null,
    };
    expect(parsePlaceEvent(crawlEvent(nulls)).ok).toBe(true);
    const before = crawlEvent({});
    expect(Object.keys(before.payload.observed)).not.toContain('languages');
    expect(parsePlaceEvent(before).ok).toBe(true);
  });

  it('refuses a wrong type or an unbounded list with the path and the reason', () => {
    expect(reasonFor(crawlEvent({ acceptingNewPatients: 'yes' as unknown as boolean }))).toMatch(
      /^payload\.observed\.acceptingNewPatients: /,
    );
    expect(reasonFor(crawlEvent({ languages: 'de' as unknown as string[] }))).toMatch(
      /^payload\.observed\.languages: /,
    );
    expect(reasonFor(crawlEvent({ insurance: Array.from({ length: 101 }, () => 'gkv') }))).toMatch(
      /^payload\.observed\.insurance: /,
    );
    expect(reasonFor(crawlEvent({ languages: ['x'.repeat(201)] }))).toBe(
      'payload.observed.languages.0: Expected at most 200 characters',
    );
  });
});

describe('the fold and the record extras', () => {
  const crawl = (overrides: Partial<Observed>, eventId: string, occurredAt: string, position: number) =>
    makeEvent(
      'place.crawled',
      { observed: observed(overrides), crawl: crawlMetadata() },
      { eventId, occurredAt, position },
    );
  const published = makeEvent('place.published', PUBLICATION, {
    eventId: 'pub',
    occurredAt: '2024-01-01T00:00:00Z',
    position: 1,
  });
  const extrasOf = (events: Parameters<typeof foldPlace>[1]) => {
    const state = foldPlace(PLACE_ID, events);
    const { languages, acceptingNewPatients, wheelchairAccessible, insurance } = toDoctorExtras(
      state,
      toDoctor(state, { siteOrigin: SITE_ORIGIN }),
    );
    return { languages, acceptingNewPatients, wheelchairAccessible, insurance };
  };

  const early = crawl(
    { languages: ['de'], acceptingNewPatients: true, wheelchairAccessible: true, insurance: ['gkv'] },
    'early',
    '2024-02-01T00:00:00Z',
    5,
  );
  const late = crawl(
    { languages: ['EN', 'de', 'tlh'], acceptingNewPatients: false, insurance: ['PKV', 'gkv'] },
    'late',
    '2024-03-01T00:00:00Z',
    2,
  );
  const withoutThem = crawl({}, 'without', '2024-04-01T00:00:00Z', 7);

  it('keeps the attributes with the crawl, read for the dataset of the publication', () => {
    expect(extrasOf([published, early])).toEqual({
      languages: ['de'],
      acceptingNewPatients: true,
      wheelchairAccessible: true,
      insurance: ['gkv'],
    });
  });

  it('takes them from the latest crawl only: a crawl replaces what was observed, it does not merge', () => {
    // The late crawl says nothing of wheelchair access: unknown, not the earlier crawl's true.
    expect(extrasOf([published, early, late])).toEqual({
      languages: ['de', 'en'],
      acceptingNewPatients: false,
      wheelchairAccessible: null,
      insurance: ['gkv', 'pkv'],
    });
    expect(extrasOf([published, early, late, withoutThem])).toEqual(UNKNOWN);
  });

  it('converges whatever the arrival order, late or replayed', () => {
    const expected = extrasOf([published, early, late]);
    expect(extrasOf([late, early, published])).toEqual(expected);
    expect(extrasOf([late, published, early, late, early])).toEqual(expected);
    // A crawl older than the one folded arrives late: it changes nothing.
    const older = crawl(
      { languages: ['fr'], wheelchairAccessible: true },
      'older',
      '2023-01-01T00:00:00Z',
      9,
    );
    expect(extrasOf([published, early, late, older])).toEqual(expected);
  });

  it("reads insurance codes in the publication's dataset", () => {
    const spanish = { ...PUBLICATION, country: 'es' as const };
    const state = servedState({ insurance: ['sns', 'gkv', 'MUFACE'], languages: ['es', 'ca'] }, spanish);
    const extras = toDoctorExtras(state, toDoctor(state, { siteOrigin: SITE_ORIGIN }));
    expect(extras.insurance).toEqual(['muface', 'sns']);
    expect(extras.languages).toEqual(['es']);
  });

  it('puts the four after the API 1.2 extras, in this order, before the provenance', () => {
    expect(DOCTOR_EXTRA_KEYS).toEqual([
      'specialtyCodes',
      'openingHours',
      'languages',
      'acceptingNewPatients',
      'wheelchairAccessible',
      'insurance',
      'observedAt',
      'updatedAt',
      'verifiedAt',
    ]);
  });

  it('never puts them in the Doctor record', () => {
    const state = servedState({ languages: ['de'], acceptingNewPatients: true, insurance: ['gkv'] });
    const doctor = toDoctor(state, { siteOrigin: SITE_ORIGIN });
    for (const key of ['languages', 'acceptingNewPatients', 'wheelchairAccessible', 'insurance']) {
      expect(Object.keys(doctor)).not.toContain(key);
    }
  });

  it('indexes them beside the extras; unknown is null or empty, which the index treats as missing', () => {
    const known = toSearchDocument(
      servedState({ languages: ['EN', 'de'], acceptingNewPatients: false, insurance: ['pkv'] }),
      { siteOrigin: SITE_ORIGIN },
    );
    if (!known.served) throw new Error('expected a served document');
    expect(known).toMatchObject({
      languages: ['de', 'en'],
      acceptingNewPatients: false,
      wheelchairAccessible: null,
      insurance: ['pkv'],
    });
    const { languages, acceptingNewPatients, wheelchairAccessible, insurance } = known.extras;
    expect({ languages, acceptingNewPatients, wheelchairAccessible, insurance }).toEqual({
      languages: known.languages,
      acceptingNewPatients: known.acceptingNewPatients,
      wheelchairAccessible: known.wheelchairAccessible,
      insurance: known.insurance,
    });
    expect(toSearchDocument(servedState(), { siteOrigin: SITE_ORIGIN })).toMatchObject(UNKNOWN);
  });
});
