import { toDoctorExtras, type DoctorExtras } from '../places/doctor-extras.js';
import { toDoctor, type Doctor, type ToDoctorOptions } from '../places/doctor.js';
import type { CountryCode } from '../events/events.js';
import type { InsuranceCode, LanguageCode } from '../events/patient-attributes.js';
import type { PublicRecord } from '../places/place-fold.js';
import { isServed, type PlaceState } from '../events/place-state.js';
import { foldText } from '../shared/text.js';
import { indexedText, joinedWords, specialtyNamesOf } from './search-analysis.js';
import { SORT_NAME_MAX_CODE_POINTS } from '../requests/page-bounds.js';
import type { GeoPoint } from './geo.js';
import { openRangesOf, type MinuteRange } from '../opening-hours/week-minutes.js';

/**
 * What the search index holds for a served place: the public Doctor exactly as served, plus the few
 * search-only fields the queries filter and sort on. Nothing else can reach the index.
 */
export type SearchDocument = {
  served: true;
  placeId: string;
  doctor: Doctor;
  /** The record's extra fields, returned only when a request names them (doctor-extras.ts). */
  extras: DoctorExtras;
  country: CountryCode;
  citySlug: string;
  profileSlug: string;
  whatsappEligible: boolean;
  verified: boolean;
  /**
   * extras.updatedAt: what `updatedSince` compares. A folded served record always has one; null (missing
   * to Elasticsearch, never matching) only for a state built without its events.
   */
  updatedAt: string | null;
  /**
   * extras.observedAt: when a crawl last saw the record, what `observedSince` and the datasets' coverage
   * (dataset-coverage.ts) compare. Null (missing to Elasticsearch, never matching) for a record no crawl
   * observed.
   */
  observedAt: string | null;
  /** The first sort key: the folded display name, cut to its first SORT_NAME_MAX_CODE_POINTS code points. */
  sortName: string;
  /**
   * The display name (the name, else the legal name) exactly as published, in Unicode NFC: what FHIR's
   * `name:exact` compares, case and accents included (the name of Organization and HealthcareService).
   */
  nameExact: string | null;
  /** The legal name exactly as published, in NFC: with `nameExact`, the alias FHIR's `name:exact` compares. */
  legalNameExact: string | null;
  /**
   * The address's postal code as a key (`postalCodeKey`: folded, without spaces or punctuation): what FHIR's
   * `address-postalcode` matches as a prefix.
   */
  postalCode: string | null;
  /**
   * Each part of the address (street, city, state, postal code, country) folded (`addressKey`): what
   * FHIR's `address` matches, the start of any part.
   */
  addressKeys: string[];
  /** Folded names, city, primary type and specialties: what `q` matches (literally, without `sort=relevance`). */
  searchText: string;
  /** The name and legal name as relevance search reads them (search-analysis.ts): the most weighted field. */
  nameText: string;
  /**
   * The primary type and specialties as published, and every label, synonym and code of the record's
   * specialty codes in every page language (search-analysis.ts): what relevance search matches them on.
   */
  specialtyText: string;
  /** The address's city and region as relevance search reads them. */
  cityText: string;
  /**
   * Each pair of neighbouring words of the name, the specialties and the city as one word
   * (search-analysis.ts, `joinedWords`): what a query word typed without its space matches.
   */
  joinedText: string;
  // Null is "missing" to Elasticsearch: such a record never matches `near` or a city name.
  /** The record's location: what `near` measures from. */
  location: GeoPoint | null;
  /** The address's city as published: the display name of the cities list. */
  cityName: string | null;
  /** `cityName` folded: what the cities list's `q` matches as a prefix. */
  cityKey: string | null;
  /**
   * The local minutes of the week the place is open (week-minutes.ts), in `timeZone`: what `openAt`
   * and `openNow` look the instant's local minute up in. Empty (missing to Elasticsearch) without
   * structured opening hours, so such a record never matches.
   */
  openRanges: MinuteRange[];
  /** The time zone of the structured opening hours; null without them. */
  timeZone: string | null;
  /** The record's specialty codes (extras.specialtyCodes): what `specialty` matches and the specialties list counts. */
  specialtyCodes: string[];
  // API 1.3 patient attributes, as in the extras (patient-attributes.ts). Unknown is an empty list or
  // null, both missing to Elasticsearch: such a record matches no value of the filter, true nor false.
  /** The language codes spoken: what `language` matches. */
  languages: LanguageCode[];
  /** What `acceptingNewPatients` matches. */
  acceptingNewPatients: boolean | null;
  /** What `wheelchairAccessible` matches. */
  wheelchairAccessible: boolean | null;
  /** The insurance codes of the record's country: what `insurance` matches. */
  insurance: InsuranceCode[];
};

/** A place that is not served; indexed as a versioned tombstone so a stale write cannot resurrect it. */
export type Tombstone = { served: false; placeId: string };

/** The index fields a query can filter, match or sort on (everything but the stored record). */
export type SearchField = Exclude<keyof SearchDocument, 'doctor' | 'extras'>;

// Plain literals (the domain imports no Elasticsearch types); search-index types them for the client.
type FieldMapping =
  | { type: 'boolean' }
  | { type: 'keyword' }
  | { type: 'keyword'; fields: { starts: typeof NAME_STARTS_MAPPING } }
  | { type: 'text'; analyzer: 'standard' }
  | { type: 'text'; analyzer: 'standard'; index_prefixes: { min_chars: number; max_chars: number } }
  | { type: 'geo_point' }
  | { type: 'integer_range' }
  | { type: 'date' }
  | { type: 'object'; enabled: false };

/**
 * The order every segment of the index keeps its records in (`index.sort`, fixed when an index is
 * created): folded name, then id. A request sorted the same way that does not count its hits stops in
 * each segment as soon as it holds its page (the name-sorted pages, the typeahead's doctors).
 */
export const INDEX_SORT = { field: ['sortName', 'placeId'], order: ['asc', 'asc'] } as const;

const NAME_STARTS_MAPPING = {
  type: 'text',
  analyzer: 'keyword',
  index_options: 'docs',
  norms: false,
  index_prefixes: { min_chars: 1, max_chars: 19 },
} as const;

/**
 * The index mapping: one entry per document field, checked both ways by the compiler (a document field
 * without a mapping, or a mapping without a field, does not compile). The record is stored, not
 * indexed. `dynamic: strict` makes any other key a hard error, so an internal field can never slip into
 * the index by accident. Core features only (standard and keyword analyzers, keyword, boolean, geo_point,
 * integer_range, date), so this runs unchanged on the minimal distribution used in tests. Changing it needs
 * `npm run reindex -- --replay` before workers that write the new fields (docs/operations.md, Reindex
 * without downtime).
 */
export const SEARCH_DOCUMENT_MAPPING = {
  dynamic: 'strict',
  properties: {
    served: { type: 'boolean' },
    placeId: { type: 'keyword' },
    doctor: { type: 'object', enabled: false },
    extras: { type: 'object', enabled: false },
    country: { type: 'keyword' },
    citySlug: { type: 'keyword' },
    profileSlug: { type: 'keyword' },
    whatsappEligible: { type: 'boolean' },
    verified: { type: 'boolean' },
    updatedAt: { type: 'date' },
    observedAt: { type: 'date' },
    // `sortName.starts`: the folded name as one token with its first 1 to 19 characters indexed as terms,
    // so the typeahead's "names starting with the typed text" is one term, not every name of the index
    // with that start.
    sortName: { type: 'keyword', fields: { starts: NAME_STARTS_MAPPING } },
    nameExact: { type: 'keyword' },
    legalNameExact: { type: 'keyword' },
    postalCode: { type: 'keyword' },
    addressKeys: { type: 'keyword' },
    // The word starts of one to four characters indexed as terms of their own: the last typed word of
    // `q` and of the typeahead is a prefix, and a short one otherwise expands to thousands of words
    // (2,000,000 places: a one-letter typeahead 26 ms of Elasticsearch on average, 11 ms with these;
    // 33 bytes a place). An index made before gets them with its next reindex.
    searchText: { type: 'text', analyzer: 'standard', index_prefixes: { min_chars: 1, max_chars: 4 } },
    nameText: { type: 'text', analyzer: 'standard' },
    specialtyText: { type: 'text', analyzer: 'standard' },
    cityText: { type: 'text', analyzer: 'standard' },
    joinedText: { type: 'text', analyzer: 'standard' },
    location: { type: 'geo_point' },
    cityName: { type: 'keyword' },
    cityKey: { type: 'keyword' },
    specialtyCodes: { type: 'keyword' },
    openRanges: { type: 'integer_range' },
    timeZone: { type: 'keyword' },
    languages: { type: 'keyword' },
    acceptingNewPatients: { type: 'boolean' },
    wheelchairAccessible: { type: 'boolean' },
    insurance: { type: 'keyword' },
  } satisfies { [Field in keyof SearchDocument]-?: FieldMapping },
} as const;

/**
 * The index document of a state: its record and what search matches, or a tombstone. `built` is the
 * state's public record when the fold already built it with these options (foldPlaceForProjection).
 */
export function toSearchDocument(
  state: PlaceState,
  options: ToDoctorOptions,
  built?: PublicRecord,
): SearchDocument | Tombstone {
  const { publication } = state;
  if (!isServed(state) || publication === null) return { served: false, placeId: state.placeId };
  const doctor = built?.doctor ?? toDoctor(state, options);
  const searchable = [
    doctor.name,
    doctor.legalName,
    doctor.address.city,
    doctor.primaryType,
    ...doctor.specialties,
  ].filter((text): text is string => text !== null);
  const { location, address } = doctor;
  const displayName = doctor.name ?? doctor.legalName;
  const extras = toDoctorExtras(state, doctor, built?.contentExtras);
  const { openingHours } = extras;
  return {
    served: true,
    placeId: state.placeId,
    doctor,
    extras,
    country: publication.country,
    citySlug: publication.citySlug,
    profileSlug: publication.profileSlug,
    whatsappEligible: doctor.whatsappEligible,
    verified: doctor.verified,
    updatedAt: extras.updatedAt,
    observedAt: extras.observedAt,
    sortName: sortNameOf(displayName ?? ''),
    nameExact: displayName === null ? null : exactNameOf(displayName),
    legalNameExact: doctor.legalName === null ? null : exactNameOf(doctor.legalName),
    // A code of punctuation only has no key: missing to Elasticsearch, it never matches.
    postalCode: postalCodeKey(address.postalCode ?? '') || null,
    addressKeys: addressKeysOf(address),
    searchText: foldText(searchable.join(' ')),
    ...relevanceTextOf(doctor, extras.specialtyCodes, publication.country),
    location: location === null ? null : { lat: location.latitude, lon: location.longitude },
    cityName: address.city,
    cityKey: address.city === null ? null : foldText(address.city),
    specialtyCodes: extras.specialtyCodes,
    openRanges: openingHours === null ? [] : openRangesOf(openingHours.periods),
    timeZone: openingHours?.timeZone ?? null,
    languages: extras.languages,
    acceptingNewPatients: extras.acceptingNewPatients,
    wheelchairAccessible: extras.wheelchairAccessible,
    insurance: extras.insurance,
  };
}

/** The fields relevance search matches, analyzed for the record's dataset (search-analysis.ts). */
function relevanceTextOf(
  doctor: Doctor,
  specialtyCodes: ReadonlyArray<string>,
  country: CountryCode,
): Pick<SearchDocument, 'nameText' | 'specialtyText' | 'cityText' | 'joinedText'> {
  const texts = (all: ReadonlyArray<string | null>) => all.filter((text): text is string => text !== null);
  const names = texts([doctor.name, doctor.legalName]);
  const specialties = texts([doctor.primaryType, ...doctor.specialties, ...specialtyNamesOf(specialtyCodes)]);
  const city = texts([doctor.address.city, doctor.address.state]);
  return {
    nameText: indexedText(names.join(' '), country),
    specialtyText: indexedText(specialties.join(' '), country),
    cityText: indexedText(city.join(' '), country),
    // A set: the same label in several languages would repeat its pair.
    joinedText: [...new Set(joinedWords([...names, ...specialties, ...city]))].join(' '),
  };
}

/**
 * The sort key of a name. A page cursor carries the sort key of the page's last record and must stay
 * within CURSOR_MAX_LENGTH whatever the name (cursor.ts works out the worst case), so only the first
 * SORT_NAME_MAX_CODE_POINTS code points of the folded name count: names that agree that far are
 * ordered by place id, which is still one deterministic order.
 */
export function sortNameOf(name: string): string {
  const folded = foldText(name);
  // A text has at most as many code points as UTF-16 units: a short one needs no cutting.
  if (folded.length <= SORT_NAME_MAX_CODE_POINTS) return folded;
  return Array.from(folded).slice(0, SORT_NAME_MAX_CODE_POINTS).join('');
}

/**
 * A name as `name:exact` compares it: exactly as published, in Unicode NFC, so the same letters typed
 * composed or decomposed are one name (case and accents still count).
 */
export function exactNameOf(name: string): string {
  return name.normalize('NFC');
}

/**
 * A part of an address as FHIR's `address` compares it: folded (case, accents, runs of spaces), as its
 * string search ignores them ("Calle Mayor 5" and "calle  mayor" start alike).
 */
export function addressKey(text: string): string {
  return foldText(text).trim();
}

/** The keys of an address's parts, each once, empty ones left out. */
function addressKeysOf(address: Doctor['address']): string[] {
  const parts = [address.street, address.city, address.state, address.postalCode, address.country];
  const keys = parts.flatMap((part) => (part === null ? [] : [addressKey(part)]));
  return [...new Set(keys.filter((key) => key !== ''))];
}

/**
 * A postal code as `address-postalcode` compares it: folded (case, accents) and without spaces or
 * punctuation, as FHIR's string search ignores them ("SW1A 1AA", "sw1a1aa"; "00-950", "00950").
 */
export function postalCodeKey(postalCode: string): string {
  return foldText(postalCode).replace(/[^\p{L}\p{N}]/gu, '');
}
