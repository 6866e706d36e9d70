// The labelled query set of `npm run bench:relevance`, built from the generated places' own fields (the
// ground truth: what each place's name, city and specialties are), deterministic for a seed. Pure: no
// I/O, so the set and its judgments are unit-tested without servers (test/bench/relevance-queries.unit.spec.ts).
import {
  PAGE_LANGUAGES,
  foldText,
  specialtyCodeOf,
  specialtyVocabularyPage,
  type SearchDocument,
  type PageLanguage,
} from '@directory/domain';
import { createRandom, type Random } from './seeded-random.js';

/** What the query set needs of one served place: the fields a person searching would know it by. */
export type JudgedPlace = {
  id: string;
  country: string;
  /** Empty when the record has none (it is then never a name query's target). */
  name: string;
  legalName: string | null;
  /** Empty when the record has none (it is then in no city's judgments). */
  city: string;
  /** The record's specialty codes (primary type first). */
  codes: ReadonlyArray<string>;
  /** The labels the record publishes (primary type, then specialties), in its source language. */
  labels: ReadonlyArray<string>;
};

export const BASE_CLASSES = [
  'name',
  'name-fragment',
  'specialty-city',
  'cross-language-specialty-city',
  'run-together',
] as const;
export type BaseClass = (typeof BASE_CLASSES)[number];
export type QueryClass = BaseClass | `${BaseClass}-typo`;
export const QUERY_CLASSES: ReadonlyArray<QueryClass> = [
  ...BASE_CLASSES,
  ...BASE_CLASSES.map((base) => `${base}-typo` as const),
];

/** 2: a place the query means (nothing in it tells them apart); 1: also a right answer, not the one meant. */
export type Grade = 1 | 2;

export type LabelledQuery = {
  country: string;
  queryClass: QueryClass;
  text: string;
  /** Place id → grade; every place not listed is irrelevant. */
  judgments: ReadonlyMap<string, Grade>;
};

/** The page language each live dataset publishes in: a query is written in it. */
export const COUNTRY_LANGUAGE: Readonly<Record<string, PageLanguage>> = {
  de: 'de',
  es: 'es',
  it: 'it',
  pt: 'pt',
};

/** A full-name query looks for one practice: names more places share than this are not drawn. */
export const FULL_NAME_MAX_HOLDERS = 3;
/** A fragment is distinctive: at most this many places' names (or legal names) hold all its words. */
export const FRAGMENT_MAX_HOLDERS = 10;
/** A fragment word is a real word of the name, not an initial or a title. */
const FRAGMENT_MIN_LETTERS = 4;
/** Typos go into words at least this long, never into the first letter (people get that one right). */
export const TYPO_MIN_LETTERS = 5;
/** Both words joined by a run-together query have at least this many letters (as the index joins them). */
const RUN_TOGETHER_MIN_LETTERS = 3;
/** Draws per wanted query before a class gives up on a small dataset. */
const ATTEMPTS_PER_QUERY = 200;

// Linear: one character class, no nesting.
const NON_WORD = /[^\p{L}\p{N}]+/u;
const LETTERS_ONLY = /^\p{L}+$/u;
const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';

/** Folded words, as the search folds text: case, accents and punctuation do not count. */
export function wordsOf(text: string): string[] {
  return foldText(text)
    .split(NON_WORD)
    .filter((word) => word !== '');
}

const keyOf = (text: string) => wordsOf(text).join(' ');

/**
 * The query with exactly one typo: one deletion, insertion, substitution or transposition of adjacent
 * letters in one word of at least TYPO_MIN_LETTERS letters, never at its first letter, and never one that
 * folding would undo (an "e" for an "é"). Null when the query has no such word.
 */
export function injectTypo(query: string, random: Random): string | null {
  const tokens = query.split(' ');
  const eligible = tokens
    .map((token, index) => ({ token, index }))
    .filter(({ token }) => LETTERS_ONLY.test(token) && Array.from(token).length >= TYPO_MIN_LETTERS);
  if (eligible.length === 0) return null;
  const { token, index } = random.pick(eligible);
  const letters = Array.from(token);
  for (let attempt = 0; attempt < 20; attempt++) {
    const typo = typoOf(letters, random);
    if (foldText(typo) !== foldText(token)) {
      const typed = [...tokens];
      typed[index] = typo;
      return typed.join(' ');
    }
  }
  return null;
}

function typoOf(letters: ReadonlyArray<string>, random: Random): string {
  const out = [...letters];
  // Positions from 1: the first letter is never touched.
  switch (random.int(0, 3)) {
    case 0:
      out.splice(random.int(1, out.length - 1), 1);
      break;
    case 1:
      out.splice(random.int(1, out.length), 0, random.pick(Array.from(LOWERCASE)));
      break;
    case 2:
      out[random.int(1, out.length - 1)] = random.pick(Array.from(LOWERCASE));
      break;
    default: {
      const at = random.int(1, out.length - 2);
      [out[at], out[at + 1]] = [out[at + 1] as string, out[at] as string];
    }
  }
  return out.join('');
}

/** Whether a name says the specialty itself: a word, a run of words or a compound's head is its label. */
export function nameMentions(name: string, code: string): boolean {
  const words = wordsOf(name);
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + 3); end++) {
      if (specialtyCodeOf(words.slice(start, end).join(' ')) === code) return true;
    }
    // "Zahnarztpraxis", "Kinderarztpraxis": a German compound's first part is the label.
    const word = words[start] as string;
    for (let length = FRAGMENT_MIN_LETTERS; length < word.length; length++) {
      if (specialtyCodeOf(word.slice(0, length)) === code) return true;
    }
  }
  return false;
}

/** One dataset's places, indexed the ways the judgments look them up. */
type CountryIndex = {
  country: string;
  places: ReadonlyArray<JudgedPlace>;
  /** Folded name → the places with exactly that display name. */
  byNameKey: ReadonlyMap<string, ReadonlyArray<JudgedPlace>>;
  /** Each place's folded name and legal-name words. */
  nameWords: ReadonlyMap<string, ReadonlySet<string>>;
  /** Folded display-name word → how many names hold it. */
  nameWordHolders: ReadonlyMap<string, number>;
  /** Folded city → its places. */
  byCity: ReadonlyMap<string, ReadonlyArray<JudgedPlace>>;
  /** Code → the folded labels the dataset's records publish for it. */
  publishedKeys: ReadonlyMap<string, ReadonlySet<string>>;
};

function indexCountry(country: string, places: ReadonlyArray<JudgedPlace>): CountryIndex {
  const byNameKey = new Map<string, JudgedPlace[]>();
  const nameWords = new Map<string, ReadonlySet<string>>();
  const nameWordHolders = new Map<string, number>();
  const byCity = new Map<string, JudgedPlace[]>();
  const publishedKeys = new Map<string, Set<string>>();
  for (const place of places) {
    push(byNameKey, keyOf(place.name), place);
    push(byCity, keyOf(place.city), place);
    nameWords.set(place.id, new Set([...wordsOf(place.name), ...wordsOf(place.legalName ?? '')]));
    for (const word of new Set(wordsOf(place.name)))
      nameWordHolders.set(word, (nameWordHolders.get(word) ?? 0) + 1);
    for (const label of place.labels) {
      const code = specialtyCodeOf(label);
      if (code === null) continue;
      const keys = publishedKeys.get(code) ?? new Set<string>();
      keys.add(keyOf(label));
      publishedKeys.set(code, keys);
    }
  }
  return { country, places, byNameKey, nameWords, nameWordHolders, byCity, publishedKeys };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Judgments of a name query, a function of its words alone: grade 2 for the places it means (`meant`:
 * for a full name, the places of exactly that display name, which nothing in the query tells apart; for
 * a fragment, every place whose display name holds all its words), grade 1 for every other place whose
 * name or legal name holds all the words (a right answer, not the one meant).
 */
function nameJudgments(
  index: CountryIndex,
  queryWords: ReadonlyArray<string>,
  meant: (place: JudgedPlace) => boolean,
): Map<string, Grade> {
  const judgments = new Map<string, Grade>();
  for (const place of index.places) {
    const words = index.nameWords.get(place.id) as ReadonlySet<string>;
    if (queryWords.every((word) => words.has(word))) judgments.set(place.id, meant(place) ? 2 : 1);
  }
  return judgments;
}

/**
 * Judgments of a specialty + city query: every place of that city carrying the code (grade 1), grade 2
 * when its name says the specialty too ("Zahnarztpraxis Dr. Weber" for dentistry).
 */
function specialtyCityJudgments(index: CountryIndex, city: string, code: string): Map<string, Grade> {
  const judgments = new Map<string, Grade>();
  for (const place of index.byCity.get(keyOf(city)) ?? []) {
    if (place.codes.includes(code)) judgments.set(place.id, nameMentions(place.name, code) ? 2 : 1);
  }
  return judgments;
}

type Draft = { text: string; judgments: Map<string, Grade> };

function fullNameQuery(index: CountryIndex, target: JudgedPlace): Draft | null {
  if (wordsOf(target.name).length === 0) return null;
  if ((index.byNameKey.get(keyOf(target.name))?.length ?? 0) > FULL_NAME_MAX_HOLDERS) return null;
  const nameKey = keyOf(target.name);
  const judgments = nameJudgments(index, wordsOf(target.name), (place) => keyOf(place.name) === nameKey);
  return { text: target.name, judgments };
}

/**
 * A distinctive word or two of the target's name, in name order: its rarest word when at most
 * FRAGMENT_MAX_HOLDERS names hold it, else its two rarest when at most that many hold both. Never the
 * whole name.
 */
function nameFragmentQuery(index: CountryIndex, target: JudgedPlace): Draft | null {
  const tokens = target.name.split(' ').filter((token) => LETTERS_ONLY.test(token));
  const candidates = [...new Set(tokens)].filter((token) => Array.from(token).length >= FRAGMENT_MIN_LETTERS);
  const holders = (token: string) => index.nameWordHolders.get(foldText(token)) ?? 0;
  const rarest = [...candidates].sort((a, b) => holders(a) - holders(b) || a.localeCompare(b));
  for (const size of [1, 2]) {
    const chosen = rarest.slice(0, size);
    if (chosen.length < size || chosen.length >= wordsOf(target.name).length) return null;
    const inNameOrder = tokens.filter((token, at) => chosen.includes(token) && tokens.indexOf(token) === at);
    const words = inNameOrder.flatMap(wordsOf);
    const judgments = nameJudgments(index, words, (place) => {
      const nameWords = wordsOf(place.name);
      return words.every((word) => nameWords.includes(word));
    });
    if (judgments.size <= FRAGMENT_MAX_HOLDERS) return { text: inNameOrder.join(' '), judgments };
  }
  return null;
}

/**
 * "ClínicaDental Sonrisa": the full-name query with two neighbouring words typed as one (both words of
 * letters only, at least RUN_TOGETHER_MIN_LETTERS long), judged as the full name.
 */
function runTogetherQuery(index: CountryIndex, target: JudgedPlace, random: Random): Draft | null {
  const full = fullNameQuery(index, target);
  if (full === null) return null;
  const tokens = full.text.split(' ');
  const joinable = (token: string | undefined) =>
    token !== undefined && LETTERS_ONLY.test(token) && Array.from(token).length >= RUN_TOGETHER_MIN_LETTERS;
  const pairs = tokens.flatMap((token, at) =>
    at > 0 && joinable(tokens[at - 1]) && joinable(token) ? [at] : [],
  );
  if (pairs.length === 0) return null;
  const at = random.pick(pairs);
  const joined = [...tokens.slice(0, at - 1), `${tokens[at - 1]}${tokens[at]}`, ...tokens.slice(at + 1)];
  return { text: joined.join(' '), judgments: full.judgments };
}

/** A code of the target that one of its published labels means, with that label. */
function publishedSpecialty(target: JudgedPlace, random: Random): { code: string; label: string } | null {
  const labelled = target.labels.flatMap((label) => {
    const code = specialtyCodeOf(label);
    return code === null ? [] : [{ code, label }];
  });
  return labelled.length === 0 ? null : random.pick(labelled);
}

/** "Zahnarzt Berlin": a label the target publishes for one of its codes, then its city. */
function specialtyCityQuery(index: CountryIndex, target: JudgedPlace, random: Random): Draft | null {
  const specialty = publishedSpecialty(target, random);
  if (specialty === null || wordsOf(target.city).length === 0) return null;
  return {
    text: `${specialty.label} ${target.city}`,
    judgments: specialtyCityJudgments(index, target.city, specialty.code),
  };
}

const LABELS: ReadonlyMap<PageLanguage, ReadonlyMap<string, string>> = new Map(
  (Object.keys(PAGE_LANGUAGES) as PageLanguage[]).map((lang) => [
    lang,
    new Map(specialtyVocabularyPage(lang).specialties.map(({ code, label }) => [code, label])),
  ]),
);

/**
 * "Dentistry Madrid" in the es dataset: the vocabulary's label of one of the target's codes in another
 * page language, then its city. Only a label that differs from the dataset language's own label and from
 * every label the dataset's records publish for the code ("Medicina interna" is Spanish and Italian
 * alike: not another language for the it dataset).
 */
function crossLanguageQuery(index: CountryIndex, target: JudgedPlace, random: Random): Draft | null {
  const specialty = publishedSpecialty(target, random);
  const own = COUNTRY_LANGUAGE[index.country];
  if (specialty === null || own === undefined || wordsOf(target.city).length === 0) return null;
  const ownKeys = new Set([
    keyOf(LABELS.get(own)?.get(specialty.code) ?? ''),
    ...(index.publishedKeys.get(specialty.code) ?? []),
  ]);
  const foreign = [...LABELS]
    .filter(([lang]) => lang !== own)
    .map(([, labels]) => labels.get(specialty.code))
    .filter((label): label is string => label !== undefined && !ownKeys.has(keyOf(label)));
  const distinct = [...new Map(foreign.map((label) => [keyOf(label), label])).values()];
  if (distinct.length === 0) return null;
  return {
    text: `${random.pick(distinct)} ${target.city}`,
    judgments: specialtyCityJudgments(index, target.city, specialty.code),
  };
}

function draftOf(
  baseClass: BaseClass,
  index: CountryIndex,
  target: JudgedPlace,
  random: Random,
): Draft | null {
  switch (baseClass) {
    case 'name':
      return fullNameQuery(index, target);
    case 'name-fragment':
      return nameFragmentQuery(index, target);
    case 'specialty-city':
      return specialtyCityQuery(index, target, random);
    case 'cross-language-specialty-city':
      return crossLanguageQuery(index, target, random);
    case 'run-together':
      return runTogetherQuery(index, target, random);
  }
}

/**
 * `perClass` queries of every class for every dataset in `COUNTRY_LANGUAGE` that has places, each drawn
 * from a random target place; a query text is not repeated within its class and dataset. The typo classes
 * are drawn on their own (from the targets whose query has a word long enough for a typo) with the same
 * judgments as the query without the typo. A class that cannot reach `perClass` on a small dataset
 * returns what it found.
 */
export function buildQuerySet(
  places: ReadonlyArray<JudgedPlace>,
  seed: number,
  perClass: number,
): LabelledQuery[] {
  const random = createRandom(seed);
  const queries: LabelledQuery[] = [];
  for (const country of Object.keys(COUNTRY_LANGUAGE)) {
    const ofCountry = places
      .filter((place) => place.country === country)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    if (ofCountry.length === 0) continue;
    const index = indexCountry(country, ofCountry);
    for (const queryClass of QUERY_CLASSES) {
      const typo = queryClass.endsWith('-typo');
      const baseClass = (typo ? queryClass.slice(0, -'-typo'.length) : queryClass) as BaseClass;
      const texts = new Set<string>();
      for (let attempt = 0; attempt < perClass * ATTEMPTS_PER_QUERY && texts.size < perClass; attempt++) {
        const draft = draftOf(baseClass, index, random.pick(ofCountry), random);
        if (draft === null) continue;
        const text = typo ? injectTypo(draft.text, random) : draft.text;
        if (text === null || texts.has(text)) continue;
        texts.add(text);
        queries.push({ country, queryClass, text, judgments: draft.judgments });
      }
    }
  }
  return queries;
}

/** The ground truth of a document: what the query set is drawn from and judged by. */
export function judgedPlace(document: SearchDocument): JudgedPlace {
  const { doctor } = document;
  return {
    id: document.placeId,
    country: document.country,
    name: doctor.name ?? doctor.legalName ?? '',
    legalName: doctor.legalName,
    city: doctor.address.city ?? '',
    codes: document.specialtyCodes,
    labels: [doctor.primaryType, ...doctor.specialties].filter((label): label is string => label !== null),
  };
}
