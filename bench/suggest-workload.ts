// The typeahead's workload, shared by `bench:suggest` and `bench:scale`: users typing real texts of a
// dataset (a doctor's name from its start or from its surname, a city, a specialty label in the
// dataset's language) one character at a time. Pure and seeded: the same texts and seed give the same
// keystrokes.
import {
  PAGE_LANGUAGES,
  specialtyVocabularyPage,
  type CountryCode,
  type PageLanguage,
} from '@directory/domain';
import type { Random } from './seeded-random.js';

/** One user typing one text: the query after each keystroke. */
export type SuggestSequence = { country: CountryCode; keystrokes: string[] };

/** What a dataset offers to type. */
export type SuggestTexts = { names: string[]; cities: string[]; specialties: string[] };

/** The longest prefix typed: past it a user picks a suggestion. */
export const MAX_TYPED = 14;

/** The query after each keystroke of `text`, up to MAX_TYPED characters, blank prefixes left out. */
export function keystrokesOf(text: string): string[] {
  const characters = [...text].slice(0, MAX_TYPED);
  return characters.map((_, index) => characters.slice(0, index + 1).join('')).filter((q) => q.trim() !== '');
}

/**
 * What one user types in `country`: a name (a quarter of the draws), its surname (its last word, a
 * quarter), a city (a quarter) or a specialty label (a quarter; a city when the dataset has none).
 */
export function drawSequence(random: Random, country: CountryCode, texts: SuggestTexts): SuggestSequence {
  const { names, cities, specialties } = texts;
  const draw = random.next();
  const name = random.pick(names);
  const text =
    draw < 0.25
      ? name
      : draw < 0.5
        ? (name.split(' ').at(-1) ?? name)
        : draw < 0.75
          ? random.pick(cities)
          : random.pick(specialties.length > 0 ? specialties : cities);
  return { country, keystrokes: keystrokesOf(text) };
}

/** The labels of specialty codes in the dataset's own language (none for a country without one). */
export function specialtyLabels(country: CountryCode, codes: Iterable<string>): string[] {
  if (!Object.hasOwn(PAGE_LANGUAGES, country)) return [];
  const labels = new Map(
    specialtyVocabularyPage(country as PageLanguage).specialties.map(({ code, label }) => [code, label]),
  );
  return [...new Set(codes)].flatMap((code) => labels.get(code) ?? []);
}
