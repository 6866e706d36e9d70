import { Faker } from '@faker-js/faker';
import type { Publication } from '@directory/domain';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { citiesOf, pickCity, pointNear } from './cities.js';
import { LOCALES, type CountryLocale } from './locales.js';
import { createPlace, sampleRegionAndPostalCode, type ObservedFields, type SamplePlace } from './place.js';
import { createPrng, type Prng } from './prng.js';

/**
 * Labelled sample data for duplicate detection: crawls of the same practice from several sources, each
 * with the id of the practice it really is (`clusterId`), and practices that only look alike (same
 * surname in the same city, same building), which are clusters of their own. Deterministic: the same
 * options always give the same records.
 */
export type LabelledPlace = {
  placeId: string;
  /** The practice the record really is: records with the same cluster id are duplicates of each other. */
  clusterId: string;
  /** The source that crawled it (each crawl of one practice comes from a different source). */
  sourceId: string;
  /** `original`: a practice's first record; `duplicate`: another source's crawl of it; `lookalike`: a different practice chosen to resemble one. */
  kind: 'original' | 'duplicate' | 'lookalike';
  observed: ObservedFields;
  /** Where the record would be published (each record has a profile of its own). */
  publication: Publication;
};

export type LabelledPlacesOptions = {
  /** Records to emit (the last cluster may be cut short). */
  count: number;
  seed: number;
  /** Share of practices crawled by more than one source. Defaults to 0.3. */
  duplicatedShare?: number;
  /** Share of practices followed by a look-alike practice. Defaults to 0.15. */
  lookalikeShare?: number;
};

export const SOURCES = ['google', 'jameda', 'doctolib', 'paginas-amarillas', 'miodottore', 'nhs', 'yelp'];

// Accents a source drops or transliterates; German umlauts also have their two-letter spelling.
const TRANSLITERATIONS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

// Street abbreviations sources use: each pair is [long form, short form], matched as a whole word
// (the German suffix "straße" also inside a word).
const STREET_FORMS: ReadonlyArray<readonly [string, string]> = [
  ['Calle', 'C/'],
  ['Avenida', 'Av.'],
  ['Carretera', 'Carr.'],
  ['Via', 'V.'],
  ['Viale', 'V.le'],
  ['Piazza', 'P.zza'],
  ['Rua', 'R.'],
  ['Praça', 'Pç.'],
  ['Boulevard', 'Bd'],
  ['Avenue', 'Av.'],
  ['Road', 'Rd'],
  ['Street', 'St'],
  ['Close', 'Cl.'],
];

const TITLES = ['Dr.', 'Dra.', 'Dott.', 'Prof.', 'Prof. Dr.', 'Dr. med.'];

/** Every record, cluster by cluster: an original, its duplicates, then now and then a look-alike. */
export function* generateLabelledPlaces(options: LabelledPlacesOptions): Generator<LabelledPlace, void> {
  const { count, seed } = options;
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number ≥ 0, got ${count}`);
  const duplicatedShare = options.duplicatedShare ?? 0.3;
  const lookalikeShare = options.lookalikeShare ?? 0.15;
  const prng = createPrng(seed);
  const fakers = new Map(
    LOCALES.map((locale) => {
      const faker = new Faker({ locale: [...locale.fakerLocales] });
      faker.seed(seed);
      return [locale.dataset, faker] as const;
    }),
  );
  let emitted = 0;
  let cluster = 0;
  while (emitted < count) {
    const locale = LOCALES[cluster % LOCALES.length] as CountryLocale;
    const faker = fakers.get(locale.dataset) as Faker;
    const city = pickCity(citiesOf(locale.isoCountry), prng);
    const place = createPlace(locale, city, faker, prng);
    const clusterId = `cl_${cluster++}`;
    const sources = shuffled(SOURCES, prng);
    const records: LabelledPlace[] = [
      {
        placeId: place.placeId,
        clusterId,
        sourceId: sources[0] as string,
        kind: 'original',
        observed: place.observed,
        publication: place.publication,
      },
    ];
    if (prng.chance(duplicatedShare)) {
      const copies = prng.chance(0.75) ? 1 : prng.int(2, 3);
      for (let copy = 1; copy <= copies; copy++) {
        records.push({
          placeId: `${place.placeId}d${copy}`,
          clusterId,
          sourceId: sources[copy] as string,
          kind: 'duplicate',
          observed: duplicateCrawl(place, faker, prng),
          publication: { ...place.publication, profileSlug: `${place.publication.profileSlug}-${copy}` },
        });
      }
    }
    if (prng.chance(lookalikeShare)) {
      const lookalike = lookalikeOf(place, faker, prng);
      records.push({
        placeId: lookalike.placeId,
        clusterId: `cl_${cluster++}`,
        sourceId: sources[0] as string,
        kind: 'lookalike',
        observed: lookalike.observed,
        publication: lookalike.publication,
      });
    }
    for (const record of records) {
      if (emitted >= count) return;
      emitted++;
      yield record;
    }
  }
}

/**
 * Another source's crawl of the same practice: the name, phone and street written its way, the
 * coordinates geocoded a little apart, some fields missing; now and then the practice has moved (new
 * address, same phone and website).
 */
export function duplicateCrawl(place: SamplePlace, faker: Faker, prng: Prng): ObservedFields {
  const original = place.observed;
  const observed: ObservedFields = { ...original, address: { ...original.address } };
  observed.name = varyName(original.name, prng);
  if (original.phone !== null) {
    const phone = prng.chance(0.1) ? null : reformatPhone(original.phone, original.address.country, prng);
    observed.phone = phone;
    if (phone === null) observed.phoneType = null;
  }
  observed.additionalPhones = prng.chance(0.5) ? [] : original.additionalPhones;
  if (original.website !== null) {
    observed.website = prng.chance(0.15) ? null : reformatWebsite(original.website, prng);
  }
  if (prng.chance(0.1)) {
    // Moved: a new address and point in the same city; the phone and website came along.
    const location = roundedPoint(pointNear(place.city, prng));
    observed.address = {
      ...observed.address,
      street: faker.location.streetAddress(),
      ...sampleRegionAndPostalCode(place.locale, place.city, location, faker, prng),
    };
    observed.location = location;
  } else {
    if (observed.address.street !== null) observed.address.street = varyStreet(observed.address.street, prng);
    if (prng.chance(0.05)) observed.address.postalCode = null;
    if (original.location !== null && prng.chance(0.9)) {
      observed.location = {
        latitude: round6(original.location.latitude + (prng.next() - 0.5) * 0.0008),
        longitude: round6(original.location.longitude + (prng.next() - 0.5) * 0.0008),
      };
    }
  }
  observed.rating = original.rating === null ? null : prng.chance(0.5) ? original.rating : null;
  observed.reviewCount = original.reviewCount === null ? null : prng.int(0, original.reviewCount);
  if (prng.chance(0.3)) observed.email = null;
  return observed;
}

/**
 * A different practice made to resemble `place`: a doctor of the same surname in the same city (another
 * first name, phone and address), or another practice in the same building (same street, postal code
 * and point).
 */
export function lookalikeOf(place: SamplePlace, faker: Faker, prng: Prng): SamplePlace {
  const sameSurname = prng.chance(0.5);
  const other = createPlace(place.locale, place.city, faker, prng, sameSurname ? place.surname : undefined);
  if (sameSurname) {
    const templates = place.locale.names.filter((template) => template.includes('{first}'));
    other.observed.name = prng
      .pick(templates)
      .replace('{first}', faker.person.firstName())
      .replace('{last}', place.surname);
  } else {
    other.observed.address = { ...place.observed.address };
    other.observed.location = place.observed.location;
  }
  // Its own site: the sample derives websites from names, which two practices may share.
  const website = other.observed.website;
  if (website !== null && website === place.observed.website) {
    other.observed.website = website.replace(/\.(?=[a-z]+$)/, '-2.');
  }
  return other;
}

/** The name as another source writes it: its title changed or dropped, accents dropped or spelt out. */
export function varyName(name: string, prng: Prng): string {
  let varied = name;
  const roll = prng.next();
  if (roll < 0.4) {
    const title = prng.pick(TITLES);
    varied = /\bDr\. med\.|\bDr\.?(?= )/.test(varied)
      ? varied.replace(/\bDr\. med\.|\bDr\.?(?= )/, prng.chance(0.3) ? '' : title)
      : `${title} ${varied}`;
  } else if (roll < 0.7) {
    varied = prng.chance(0.5) ? withoutAccents(varied) : transliterated(varied);
  } else if (roll < 0.8) {
    varied = varied.toUpperCase();
  }
  return varied.replace(/ {2,}/g, ' ').trim();
}

/** A phone number in another notation: national, international, E.164, with spaces, dashes or none. */
export function reformatPhone(phone: string, isoCountry: string | null, prng: Prng): string {
  const parsed = parsePhoneNumberFromString(phone, (isoCountry ?? 'DE') as 'DE');
  if (parsed === undefined) return phone;
  switch (prng.int(0, 4)) {
    case 0:
      return parsed.formatNational();
    case 1:
      return parsed.formatInternational();
    case 2:
      return parsed.number;
    case 3:
      return parsed.formatNational().replace(/ /g, '-');
    default:
      return parsed.formatInternational().replace(/ /g, '');
  }
}

/** The street with its type word abbreviated or written out ("Str." / "Straße", "C/" / "Calle"…). */
export function varyStreet(street: string, prng: Prng): string {
  if (/str\.|straße|strasse/i.test(street)) {
    return street.replace(/str\.|straße|strasse/i, prng.pick(['str.', 'straße', 'strasse', ' Str.']));
  }
  for (const [long, short] of STREET_FORMS) {
    if (startsWithWord(street, long)) return `${short}${street.slice(long.length)}`;
    if (startsWithWord(street, short)) return `${long}${street.slice(short.length)}`;
  }
  return prng.chance(0.5) ? withoutAccents(street) : street;
}

function startsWithWord(text: string, word: string): boolean {
  return (
    text.startsWith(word) && (word.endsWith('/') || word.endsWith('.') || text.charAt(word.length) === ' ')
  );
}

/** The same site as another source links it: http or https, with or without www, a page or not. */
function reformatWebsite(website: string, prng: Prng): string {
  const host = new URL(website).hostname.replace(/^www\./, '');
  const scheme = prng.chance(0.5) ? 'https://' : 'http://';
  const www = prng.chance(0.5) ? 'www.' : '';
  const path = prng.pick(['', '/', '/kontakt', '/index.html', '/contact']);
  return `${scheme}${www}${host}${path}`;
}

function withoutAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '');
}

function transliterated(text: string): string {
  return text.replace(/[äöüßÄÖÜ]/g, (letter) => {
    const lower = TRANSLITERATIONS[letter.toLowerCase()] ?? letter;
    return letter === letter.toLowerCase() ? lower : `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
  });
}

function shuffled<T>(items: ReadonlyArray<T>, prng: Prng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = prng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function roundedPoint(point: { latitude: number; longitude: number }) {
  return { latitude: round6(point.latitude), longitude: round6(point.longitude) };
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
