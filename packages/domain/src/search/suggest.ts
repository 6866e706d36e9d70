import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import type { CountryCode } from '../events/events.js';
import { PAGE_LANGUAGE_CODES, type PageLanguage } from '../places/profile-url.js';
import {
  countryFromQuery,
  langWithDefault,
  limitFromQuery,
  parseParameters,
  requiredText,
  type ParameterError,
} from '../requests/query-parameters.js';
import type { Result } from '../shared/result.js';
import { SPECIALTY_VOCABULARY, specialtyLabel, type SpecialtyCode } from '../places/specialty-vocabulary.js';
import { foldText } from '../shared/text.js';
import { datasetFilter } from './city-list.js';
import { matchCities, type CityMatch, type CityTable } from './city-table.js';
import { cityNameGroupsOf } from './place-names.js';
import { splitWords, wordsOf } from './search-analysis.js';

/**
 * The typeahead (`GET /api/v1/suggest`, API 1.3): what a search box offers while the user types, over
 * one dataset. Three kinds of suggestion, each telling the client what to call next:
 *
 * - `specialty` (`{ code, label }` → search with `specialty=code`): the vocabulary's labels and synonyms
 *   in every page language, matched in memory, restricted to codes that served records of the dataset
 *   carry (the specialties list's count aggregation, which the hot-query cache keeps);
 * - `city` (`{ citySlug, name }` → search with `city=citySlug`): the cities with a word of a published
 *   spelling starting with the typed text, or whose slug starts with it, or whose city has another name
 *   that the typed text matches (place-names.ts: "munich" suggests München), counted by their matching
 *   records in the dataset's city table (city-table.ts), kept in memory and read again on its own clock;
 * - `doctor` (`{ id, name, city }` → `GET /api/v1/doctors/{id}`): the records search's `q` finds for the
 *   same text (`match_bool_prefix` on `searchText`: names, city, type and specialties).
 *
 * Matching is case- and accent-insensitive (`foldText`, as everywhere). Specialties and cities must match
 * the whole typed text at a word start: every typed word a whole word of the label or city, in order,
 * the last one a prefix ("allg" and "medicina ge" match; "ge medicina" does not). Doctors match as search
 * does: every typed word somewhere, the last one a prefix.
 *
 * Order (deterministic): specialties (most records first, then code), then cities (most matching records
 * first, then slug), then doctors (names starting with the typed text first, then folded name, then id).
 * Specialties and cities each take at most a quarter of `limit` (at least one) while doctors can fill the
 * rest; what doctors leave empty goes to further specialties, then further cities.
 *
 * Per keystroke, two small Elasticsearch requests side by side for doctors (each stopping once it holds
 * `limit` records, so their cost does not grow with the dataset), plus the specialty counts when a
 * specialty matches, which the hot-query cache shares with `GET /api/v1/specialties?country=`. Cities
 * come from memory.
 */

export const SUGGEST_LIMIT_MAX = 20;
export const SUGGEST_DEFAULT_LIMIT = 8;
export const SUGGEST_Q_MAX_LENGTH = 100;
export const DEFAULT_SUGGEST_LANGUAGE: PageLanguage = 'en';

export type SuggestParams = { country: CountryCode; q: string; limit: number; lang: PageLanguage };

export type DoctorSuggestion = { type: 'doctor'; id: string; name: string; city: string | null };
export type CitySuggestion = { type: 'city'; citySlug: string; name: string };
export type SpecialtySuggestion = { type: 'specialty'; code: string; label: string };
export type Suggestion = SpecialtySuggestion | CitySuggestion | DoctorSuggestion;
export type SuggestPage = { suggestions: Suggestion[] };

const Q_REASON = `is required: 1 to ${SUGGEST_Q_MAX_LENGTH} characters`;

/** The query string of `GET /api/v1/suggest`. Use `parseSuggestParams` for the full rules. */
export const suggestParamsSchema = z.object({
  country: countryFromQuery.describe(
    `Dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted} (as in search).`,
  ),
  q: requiredText(SUGGEST_Q_MAX_LENGTH, Q_REASON).describe(
    `The text typed so far, trimmed, 1 to ${SUGGEST_Q_MAX_LENGTH} characters; case- and accent-insensitive, the last word a prefix (e.g. "mül", "zahn", "san seb").`,
  ),
  limit: limitFromQuery(
    { max: SUGGEST_LIMIT_MAX, default: SUGGEST_DEFAULT_LIMIT },
    `Suggestions to return, 1 to ${SUGGEST_LIMIT_MAX}; default ${SUGGEST_DEFAULT_LIMIT}.`,
  ),
  // Case-insensitive, like `lang` on the specialties list and the record routes.
  lang: langWithDefault(DEFAULT_SUGGEST_LANGUAGE).describe(
    `Page language of specialty labels: ${PAGE_LANGUAGE_CODES.join(', ')} (case-insensitive); default ${DEFAULT_SUGGEST_LANGUAGE}. Typed text matches labels of every language.`,
  ),
});

/** Validates a parsed query string: the rules of every operation (unknown, repeated, keys in the URL). */
export function parseSuggestParams(raw: Record<string, unknown>): Result<SuggestParams, ParameterError[]> {
  return parseParameters(suggestParamsSchema, raw, 'query');
}

// ---- the typed text ----

/**
 * Whether `typed` starts at some word of `words`: every typed word equal to the word at its place, the
 * last one a prefix of it. No typed word matches nothing.
 */
export function matchesAtWordStart(words: ReadonlyArray<string>, typed: ReadonlyArray<string>): boolean {
  const last = typed.length - 1;
  if (last < 0) return false;
  for (let start = 0; start + last < words.length; start += 1) {
    let matches = true;
    for (let index = 0; index < last && matches; index += 1) {
      matches = words[start + index] === typed[index];
    }
    if (matches && (words[start + last] as string).startsWith(typed[last] as string)) return true;
  }
  return false;
}

// ---- specialties: the vocabulary, in memory ----

/** Each code with the folded words of its labels and synonyms in every language. */
const SPECIALTY_WORDS: ReadonlyArray<{ code: SpecialtyCode; phrases: ReadonlyArray<string[]> }> =
  SPECIALTY_VOCABULARY.map((entry) => {
    const synonyms: ReadonlyArray<ReadonlyArray<string>> = Object.values(entry.synonyms);
    const texts = new Set([...Object.values(entry.labels), ...synonyms.flat()].map(foldText));
    return { code: entry.code, phrases: [...texts].map(splitWords) };
  });

/** The codes one of whose labels or synonyms (any language) the typed text matches at a word start, in code order. */
export function matchingSpecialtyCodes(q: string): SpecialtyCode[] {
  const typed = wordsOf(q);
  return SPECIALTY_WORDS.filter(({ phrases }) => phrases.some((words) => matchesAtWordStart(words, typed)))
    .map(({ code }) => code)
    .sort();
}

// ---- the Elasticsearch requests: doctors and cities ----

type Clause = Record<string, unknown>;

/** The index's own order (`INDEX_SORT`): a request sorted so stops once it holds its page. */
type NameOrder = [{ sortName: 'asc' }, { placeId: 'asc' }];

export type SuggestDoctorsRequestBody = {
  size: number;
  query: { bool: { filter: Clause[]; must_not?: Clause[] } };
  sort: NameOrder;
  _source: string[];
  track_total_hits: false;
};

/** The two doctors requests: the names that start with the typed text, and the other matches. */
export type SuggestDoctorsRequests = {
  starting: SuggestDoctorsRequestBody;
  others: SuggestDoctorsRequestBody;
};

/** The parts of the answers the suggestions read. */
export type SuggestResponse = {
  /** The hits of the two doctors requests, in the order `buildSuggestDoctorsRequests` names them. */
  doctorHits: { starting: ReadonlyArray<SuggestHit>; others: ReadonlyArray<SuggestHit> };
  /** The matching cities of the dataset's city table (`suggestCities`). */
  cities: ReadonlyArray<CityMatch>;
};

export type SuggestHit = { _source?: SuggestHitSource | undefined };

export type SuggestHitSource = {
  placeId?: string;
  doctor?: { name?: string | null; legalName?: string | null; address?: { city?: string | null } };
};

/**
 * The doctors: search's `q` clause (literal text, never query syntax) on the dataset; the names that
 * start with the typed text first, then the other matches, each by folded name, then id.
 *
 * Two requests, each sorted as the index keeps its records (`INDEX_SORT`) and not counting its hits,
 * so Elasticsearch stops each one as soon as it holds `limit` records instead of visiting every match
 * (a one-letter keystroke matches most of a dataset, and ranking every match made a keystroke's cost
 * grow with the dataset). "Starts with" is one term of `sortName.starts` (its 1 to 19 first characters;
 * a longer text expands over the few names sharing it). An index made before that field answers with no
 * name put first until `npm run reindex`.
 */
export function buildSuggestDoctorsRequests(params: SuggestParams): SuggestDoctorsRequests {
  const folded = foldText(params.q);
  const filter = [
    ...datasetFilter(params.country),
    { match_bool_prefix: { searchText: { query: folded, operator: 'and' } } },
  ];
  const startsWithText = { prefix: { 'sortName.starts': folded } };
  const request = (query: SuggestDoctorsRequestBody['query']): SuggestDoctorsRequestBody => ({
    size: params.limit,
    query,
    sort: [{ sortName: 'asc' }, { placeId: 'asc' }],
    _source: ['placeId', 'doctor.name', 'doctor.legalName', 'doctor.address.city'],
    track_total_hits: false,
  });
  return {
    starting: request({ bool: { filter: [...filter, startsWithText] } }),
    others: request({ bool: { filter, must_not: [startsWithText] } }),
  };
}

/**
 * The cities the typed text finds in the dataset's city table (city-table.ts): a word of a spelling's
 * folded name starts with it, or the slug does ("san-seb", "baden-baden"), or the city has another name
 * the typed text matches at a word start; most matching records first, at most `limit`.
 */
export function suggestCities(table: CityTable, params: SuggestParams): CityMatch[] {
  const folded = foldText(params.q);
  return matchCities(table, folded, citySlugsTyped(params.country, splitWords(folded)), params.limit);
}

/** The slugs of the dataset's cities one of whose names the typed words match at a word start. */
export function citySlugsTyped(country: CountryCode, typed: ReadonlyArray<string>): string[] {
  return cityNameGroupsOf(country)
    .filter((group) => group.names.some((words) => matchesAtWordStart(words, typed)))
    .flatMap((group) => group.slugs);
}

// ---- the answer ----

/** Doctors, cities and specialties merged in answer order (see the module comment). */
export function toSuggestPage(
  params: SuggestParams,
  response: SuggestResponse | undefined,
  /** The matching specialty codes that the dataset's records carry, with their counts. */
  specialtyCounts: ReadonlyArray<{ code: string; count: number }>,
): SuggestPage {
  const specialties = [...specialtyCounts]
    .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .flatMap(({ code }): SpecialtySuggestion[] => {
      const label = specialtyLabel(code, params.lang);
      return label === undefined ? [] : [{ type: 'specialty', code, label }];
    });
  const cities = (response?.cities ?? []).map(({ citySlug, name }): CitySuggestion => ({
    type: 'city',
    citySlug,
    name,
  }));
  const hits = response === undefined ? [] : [...response.doctorHits.starting, ...response.doctorHits.others];
  const doctors = hits.flatMap(({ _source: source }): DoctorSuggestion[] => {
    const name = source?.doctor?.name ?? source?.doctor?.legalName ?? null;
    if (source?.placeId === undefined || name === null) return [];
    return [{ type: 'doctor', id: source.placeId, name, city: source.doctor?.address?.city ?? null }];
  });
  return { suggestions: mergeSuggestions(params.limit, specialties, cities, doctors) };
}

/**
 * Specialties and cities take at most a quarter of `limit` each (at least one); doctors fill the rest;
 * slots doctors leave go to further specialties, then further cities. Kinds stay grouped in that order.
 */
export function mergeSuggestions(
  limit: number,
  specialties: ReadonlyArray<SpecialtySuggestion>,
  cities: ReadonlyArray<CitySuggestion>,
  doctors: ReadonlyArray<DoctorSuggestion>,
): Suggestion[] {
  const share = Math.max(1, Math.floor(limit / 4));
  let specialtyCount = Math.min(specialties.length, share, limit);
  let cityCount = Math.min(cities.length, share, limit - specialtyCount);
  const doctorCount = Math.min(doctors.length, limit - specialtyCount - cityCount);
  let free = limit - specialtyCount - cityCount - doctorCount;
  const moreSpecialties = Math.min(free, specialties.length - specialtyCount);
  specialtyCount += moreSpecialties;
  free -= moreSpecialties;
  cityCount += Math.min(free, cities.length - cityCount);
  return [
    ...specialties.slice(0, specialtyCount),
    ...cities.slice(0, cityCount),
    ...doctors.slice(0, doctorCount),
  ];
}

// ---- the answer's schema (OpenAPI components; open objects: clients ignore fields they do not know) ----

export const specialtySuggestionSchema = z.looseObject({
  type: z.literal('specialty'),
  code: z.string().meta({
    description: 'A specialty code: search with `specialty=<code>`',
    examples: ['dentistry'],
  }),
  label: z.string().meta({ description: 'Its label in `lang`', examples: ['Dentistry'] }),
});

export const citySuggestionSchema = z.looseObject({
  type: z.literal('city'),
  citySlug: z.string().meta({
    description: 'A city slug: search with `city=<citySlug>`',
    examples: ['muenchen'],
  }),
  name: z.string().meta({
    description:
      "Display name: the most common matching spelling among the city's records (the slug if none)",
    examples: ['München'],
  }),
});

export const doctorSuggestionSchema = z.looseObject({
  type: z.literal('doctor'),
  id: z.string().meta({ description: 'The record id: `GET /api/v1/doctors/{id}`' }),
  name: z.string().meta({ description: 'Published display name (the legal name when there is none)' }),
  city: z.string().nullable().meta({ description: 'Published address city; null when there is none' }),
});

export const suggestPageSchema = z.looseObject({
  suggestions: z
    .array(
      z.discriminatedUnion('type', [specialtySuggestionSchema, citySuggestionSchema, doctorSuggestionSchema]),
    )
    .max(SUGGEST_LIMIT_MAX),
});
