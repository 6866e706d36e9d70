import type { Faker } from '@faker-js/faker';
import type { Publication } from '@directory/domain';
import { pointNear, type SampleCity } from './cities.js';
import type { CountryLocale } from './locales.js';
import {
  sampleAcceptingNewPatients,
  samplePatientAttributes,
  type ObservedPatientAttributes,
} from './patient-attributes.js';
import { samplePhone, type SamplePhone } from './phones.js';
import { BASE32, type Prng } from './prng.js';
import { formatPostalCode } from './regions-index.js';
import { slugify } from './slug.js';
import { sampleWorkingHours, type WorkingHours } from './working-hours.js';

export type ObservedFields = {
  name: string;
  legalName: string | null;
  address: {
    street: string | null;
    city: string;
    state: string | null;
    postalCode: string | null;
    country: string;
  };
  location: { latitude: number; longitude: number } | null;
  phone: string | null;
  phoneType: SamplePhone['type'] | null;
  additionalPhones: SamplePhone[];
  email: string | null;
  website: string | null;
  googleMapsUrl: string | null;
  primaryType: string;
  specialties: string[];
  rating: number | null;
  reviewCount: number | null;
  whatsappEligible: boolean;
  workingHours: WorkingHours | null;
} & ObservedPatientAttributes;

/** Everything the generator remembers about one place while its events are being emitted. */
export type SamplePlace = {
  placeId: string;
  locale: CountryLocale;
  city: SampleCity;
  dental: boolean;
  googleCid: string;
  /** The surname the name templates were filled with (whether or not the chosen template shows it). */
  surname: string;
  observed: ObservedFields;
  publication: Publication;
};

const SHORT_SUFFIX = 'abcdefghijkmnpqrstuvwxyz23456789';

export function createPlace(
  locale: CountryLocale,
  city: SampleCity,
  faker: Faker,
  prng: Prng,
  /** A surname to use instead of a drawn one (the labelled duplicates' same-surname neighbours). */
  surname?: string,
): SamplePlace {
  const placeId = `pl_${prng.chars(BASE32, 16)}`;
  const dental = prng.chance(0.35);
  const first = faker.person.firstName();
  const drawnLast = faker.person.lastName();
  const person = { first, last: surname ?? drawnLast, last2: faker.person.lastName() };
  const fill = (template: string) =>
    template
      .replace('{first}', person.first)
      .replace('{last}', person.last)
      .replace('{last2}', person.last2)
      .replace('{city}', city.name)
      .replace('{word}', prng.pick(locale.brandWords));
  const name = fill(prng.pick(dental ? locale.dentalNames : locale.names));
  const googleCid = `${prng.int(1, 9)}${prng.digits(18)}`;
  const nameSlug = slugify(name) || 'praxis';
  const website = prng.chance(0.75) ? `https://www.${nameSlug}.${locale.topLevelDomain}` : null;
  const location = prng.chance(0.97) ? roundedPoint(pointNear(city, prng)) : null;
  const observed: ObservedFields = {
    name,
    legalName: prng.chance(0.7) ? fill(prng.pick(locale.legalNames)) : null,
    address: {
      street: prng.chance(0.95) ? faker.location.streetAddress() : null,
      city: city.name,
      ...sampleRegionAndPostalCode(locale, city, location, faker, prng),
      country: locale.isoCountry,
    },
    location,
    ...samplePrimaryPhone(locale, prng),
    additionalPhones: sampleAdditionalPhones(locale, prng),
    email: sampleEmail(locale, person, website, prng),
    website,
    googleMapsUrl: prng.chance(0.9) ? `https://maps.google.com/?cid=${googleCid}` : null,
    primaryType: dental ? locale.dentalType : prng.pick(locale.primaryTypes),
    specialties: sampleSpecialties(dental ? locale.dentalSpecialties : locale.specialties, prng),
    ...sampleRating(prng),
    workingHours: prng.chance(0.85) ? sampleWorkingHours(locale.dayLabels, prng) : null,
    ...samplePatientAttributes(locale, city, dental, prng),
  };
  const publication = {
    country: locale.dataset,
    citySlug: city.slug,
    // The suffix keeps two "Praxis Dr. Anna Müller" in one city apart.
    profileSlug: `${nameSlug}-${prng.chars(SHORT_SUFFIX, 4)}`,
  };
  return { placeId, locale, city, dental, googleCid, surname: person.last, observed, publication };
}

/** What a later crawl of the same place sees: mostly the same, with the usual drift. */
export function recrawl(place: SamplePlace, prng: Prng): ObservedFields {
  const previous = place.observed;
  const next: ObservedFields = { ...previous, address: { ...previous.address } };
  if (next.rating !== null) {
    next.rating = clamp(roundTo(next.rating + (prng.next() - 0.5) * 0.4, 1), 1, 5);
    next.reviewCount = (next.reviewCount ?? 0) + prng.int(0, 40);
  } else if (prng.chance(0.3)) {
    Object.assign(next, sampleRating(prng));
  }
  if (prng.chance(0.2)) Object.assign(next, samplePrimaryPhone(place.locale, prng));
  if (prng.chance(0.2)) next.additionalPhones = sampleAdditionalPhones(place.locale, prng);
  if (prng.chance(0.25)) next.workingHours = sampleWorkingHours(place.locale.dayLabels, prng);
  if (prng.chance(0.15))
    next.specialties = sampleSpecialties(
      place.dental ? place.locale.dentalSpecialties : place.locale.specialties,
      prng,
    );
  if (prng.chance(0.05)) next.website = null;
  // Practices open and close their lists; a later crawl may also find out what an earlier one did not.
  if (prng.chance(0.1)) next.acceptingNewPatients = sampleAcceptingNewPatients(place.dental, prng);
  if (prng.chance(0.05)) next.name = `${previous.name} – ${place.city.name}`;
  place.observed = next;
  return next;
}

/**
 * The region and postal code of the city, where the country has a region table; elsewhere Faker's,
 * which need not agree with the city. A place always keeps its location or its postal code, as the
 * time zone of its opening hours is read from one of them (the Canary Islands, Madeira, the Azores).
 */
export function sampleRegionAndPostalCode(
  locale: CountryLocale,
  city: SampleCity,
  location: ObservedFields['location'],
  faker: Faker,
  prng: Prng,
): Pick<ObservedFields['address'], 'state' | 'postalCode'> {
  if (city.region === null) {
    return {
      state: prng.chance(0.9) ? faker.location.state() : null,
      postalCode: prng.chance(0.95) ? faker.location.zipCode() : null,
    };
  }
  return {
    state: prng.chance(0.9) ? city.region.name : null,
    postalCode:
      location === null || prng.chance(0.95) ? samplePostalCode(locale.isoCountry, city, prng) : null,
  };
}

/** A code of the city's area, each code of its ranges equally likely. */
function samplePostalCode(isoCountry: string, city: SampleCity, prng: Prng): string {
  const total = city.postalRanges.reduce((sum, [low, high]) => sum + high - low + 1, 0);
  let offset = prng.int(0, total - 1);
  for (const [low, high] of city.postalRanges) {
    if (offset <= high - low) return formatPostalCode(isoCountry, low + offset, prng.digits(3));
    offset -= high - low + 1;
  }
  throw new Error(`no postal ranges for ${city.name}`);
}

function roundedPoint(point: { latitude: number; longitude: number }) {
  return { latitude: roundTo(point.latitude, 6), longitude: roundTo(point.longitude, 6) };
}

function samplePrimaryPhone(locale: CountryLocale, prng: Prng) {
  if (prng.chance(0.04)) return { phone: null, phoneType: null, whatsappEligible: false };
  const mobile = prng.chance(0.45);
  const phone = samplePhone(locale.isoCountry, mobile ? 'mobile' : 'landline', prng);
  // Only mobiles can take WhatsApp; most practices with one have opted in.
  return { phone: phone.number, phoneType: phone.type, whatsappEligible: mobile && prng.chance(0.85) };
}

function sampleAdditionalPhones(locale: CountryLocale, prng: Prng): SamplePhone[] {
  const count = prng.chance(0.5) ? 0 : prng.int(1, 3);
  return Array.from({ length: count }, () =>
    samplePhone(locale.isoCountry, prng.chance(0.3) ? 'mobile' : 'landline', prng),
  );
}

function sampleEmail(
  locale: CountryLocale,
  person: { first: string; last: string },
  website: string | null,
  prng: Prng,
): string | null {
  if (prng.chance(0.2)) return null;
  if (website !== null && prng.chance(0.7)) {
    return `${prng.pick(['info', 'praxis', 'kontakt', 'contact', 'citas', 'recepcao'])}@${website.slice('https://www.'.length)}`;
  }
  const local = `${slugify(person.first)}.${slugify(person.last)}`.replace(/-/g, '.');
  return `${local}${prng.chance(0.3) ? prng.int(1, 99) : ''}@${prng.pick(locale.mailDomains)}`;
}

function sampleSpecialties(list: ReadonlyArray<string>, prng: Prng): string[] {
  const wanted = prng.int(1, Math.min(5, list.length));
  const chosen = new Set<string>();
  while (chosen.size < wanted) chosen.add(prng.pick(list));
  return [...chosen];
}

function sampleRating(prng: Prng): { rating: number | null; reviewCount: number | null } {
  if (prng.chance(0.15)) return { rating: null, reviewCount: prng.chance(0.5) ? 0 : null };
  // Ratings cluster high, as on real review sites, with a tail of poor ones.
  const rating = prng.chance(0.1) ? 1 + prng.next() * 2.5 : 3.5 + prng.next() * 1.5;
  return { rating: clamp(roundTo(rating, 1), 1, 5), reviewCount: Math.floor(Math.exp(prng.next() * 6.5)) };
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
