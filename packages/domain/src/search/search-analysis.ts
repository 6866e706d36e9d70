import type { CountryCode } from '../events/events.js';
import { SPECIALTY_VOCABULARY } from '../places/specialty-vocabulary.js';
import { foldText } from '../shared/text.js';

/**
 * The text analysis of relevance search (`sort=relevance`), done here rather than in Elasticsearch: the
 * index only splits the words this module writes (standard analyzer), so the analysis is the same on
 * every distribution, unit-testable, and the same code shapes what is indexed and what is searched.
 *
 * - Words: folded (case, accents, ligatures; `foldText`), split at anything that is not a letter or a
 *   digit, so "HNO-Arzt" is "hno arzt" and "dell'Ospedale" is "dell ospedale".
 * - German compounds (the `de` dataset): a word made of known parts is indexed as itself and as its
 *   parts, so "Zahnarzt" finds "Zahnarztpraxis" and "Kinder" finds "Kinderarztpraxis". Parts come from
 *   the specialty vocabulary's German words and a short list of the words practices are named with;
 *   a word that cannot be read as parts stays one word (never a guess from a fragment).
 * - Run-together words: each pair of neighbouring words of a text is also indexed as one word
 *   (`joinedWords`; what a shingle filter with an empty separator writes), so a query word typed
 *   without its space ("clinicadental", "zahnarztpraxis") matches the two words it joins.
 * - Specialties across languages: a record's specialty codes add their labels and synonyms in every
 *   page language and the code itself, so "dentist" finds a Spanish "Dentista" record and
 *   "dentistry" (the code) finds them all.
 *
 * Typo tolerance, prefixes and weights are the query's business (search-relevance.ts).
 */

/** The smallest compound part: shorter ones ("arzt" is four) would split ordinary words by chance. */
const MIN_PART_LENGTH = 4;
/** Words shorter than this are never split: a compound has two parts of at least MIN_PART_LENGTH. */
const MIN_COMPOUND_LENGTH = 2 * MIN_PART_LENGTH;
/** German links parts with these ("Gesundheit-s-zentrum", "Frau-en-arzt"). */
const LINKING_LETTERS = ['s', 'n', 'en', 'es'];

// Words German practice names and listings are built from, beyond the vocabulary's own (folded).
const GERMAN_NAME_PARTS = [
  'arzt',
  'arzte',
  'arztin',
  'arztinnen',
  'praxis',
  'praxen',
  'zentrum',
  'klinik',
  'kliniken',
  'medizin',
  'medizinisch',
  'heilkunde',
  'chirurgie',
  'therapie',
  'therapeut',
  'gemeinschaft',
  'gemeinschafts',
  'versorgung',
  'gesundheit',
  'haus',
  'kinder',
  'jugend',
  'frauen',
  'augen',
  'zahn',
  'zahne',
  'haut',
  'tier',
  'physio',
  'ergo',
  'logo',
  'psycho',
  'ortho',
  'privat',
  'familie',
  'familien',
  'notfall',
  'labor',
  'radiologie',
  'diagnostik',
  'prophylaxe',
  'implantat',
  'implantologie',
  'kieferorthopadie',
  'orthopadie',
  'neurologie',
  'kardiologie',
  'urologie',
  'dermatologie',
  'gynakologie',
  'pediatrie',
  'padiatrie',
  'innere',
  'allgemein',
  'allgemeinmedizin',
  'sport',
  'rucken',
  'wirbelsaule',
  'herz',
  'lunge',
  'nieren',
  'schmerz',
  'schlaf',
  'ernahrung',
  'hals',
  'nasen',
  'ohren',
  'heilpraktiker',
];

/** The folded words of a text, in order. */
export function wordsOf(text: string): string[] {
  return splitWords(foldText(text));
}

/** The words of folded text: runs of letters and digits (what the standard analyzer keeps, roughly). */
export function splitWords(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** The compound parts the `de` dataset splits words into: the vocabulary's German words and the list above. */
const GERMAN_PARTS: ReadonlySet<string> = new Set(
  [
    ...GERMAN_NAME_PARTS,
    ...SPECIALTY_VOCABULARY.flatMap((entry) => [
      entry.labels.de,
      ...((entry.synonyms as { de?: ReadonlyArray<string> }).de ?? []),
    ]).flatMap(wordsOf),
  ].filter((word) => word.length >= MIN_PART_LENGTH),
);

/** Longer words are left whole: no German compound a practice is named with comes near it. */
const MAX_COMPOUND_LENGTH = 64;

/**
 * The parts of a German compound, when the whole word reads as known parts (optionally linked by an
 * s, n, en or es); otherwise none. The longest first part wins, so "zahnarztpraxis" is
 * ["zahnarzt", "praxis"]; a part that is a compound itself is split again by `indexedWords`. One pass
 * from the word's end (each suffix's best split is worked out once): quadratic in a bounded length.
 */
export function compoundParts(word: string, parts: ReadonlySet<string> = GERMAN_PARTS): string[] {
  if (word.length < MIN_COMPOUND_LENGTH || word.length > MAX_COMPOUND_LENGTH) return [];
  // splits[i]: the parts of word.slice(i), or null when it cannot be read as parts; splits[length] = [].
  const splits: Array<string[] | null> = new Array<string[] | null>(word.length + 1).fill(null);
  splits[word.length] = [];
  for (let start = word.length - MIN_PART_LENGTH; start >= 0; start -= 1) {
    splits[start] = splitAt(word, start, parts, splits);
  }
  const whole = splits[0] ?? null;
  return whole !== null && whole.length > 1 ? whole : [];
}

/** The split of word.slice(start): the longest known head followed by a split rest (linked or not). */
function splitAt(
  word: string,
  start: number,
  parts: ReadonlySet<string>,
  splits: ReadonlyArray<string[] | null>,
): string[] | null {
  // The whole word is no split of itself.
  const longest = start === 0 ? word.length - MIN_PART_LENGTH : word.length;
  for (let end = longest; end - start >= MIN_PART_LENGTH; end -= 1) {
    const head = word.slice(start, end);
    if (!parts.has(head)) continue;
    const rest = splits[end];
    if (rest !== null && rest !== undefined) return [head, ...rest];
    for (const link of LINKING_LETTERS) {
      const after = end + link.length;
      if (after >= word.length || word.slice(end, after) !== link) continue;
      const linked = splits[after];
      if (linked !== null && linked !== undefined && linked.length > 0) return [head, ...linked];
    }
  }
  return null;
}

/**
 * The words a text is indexed with in a dataset: each folded word, and for `de` the parts of each
 * compound (a part that is a compound itself adds its parts too: "kinderzahnarztpraxis" adds
 * "kinder", "zahnarzt", "praxis", "zahn", "arzt").
 */
export function indexedWords(text: string, country: CountryCode): string[] {
  const words = wordsOf(text);
  if (country !== 'de') return words;
  const out: string[] = [];
  for (const word of words) {
    out.push(word);
    const pending = compoundParts(word);
    while (pending.length > 0) {
      const part = pending.shift() as string;
      out.push(part);
      pending.push(...compoundParts(part));
    }
  }
  return out;
}

/** A word shorter than this is never joined to its neighbour: "dr ana" as "drana" would be a name by chance. */
const MIN_JOINED_PART_LENGTH = 3;

/**
 * Each pair of neighbouring words of each text, written as one word ("Clínica Dental Sonrisa" gives
 * "clinicadental" and "dentalsonrisa"), when both words have at least MIN_JOINED_PART_LENGTH letters.
 * Words of different texts are never joined.
 */
export function joinedWords(texts: ReadonlyArray<string>): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const words = wordsOf(text);
    for (let index = 1; index < words.length; index += 1) {
      const first = words[index - 1] as string;
      const second = words[index] as string;
      if (first.length >= MIN_JOINED_PART_LENGTH && second.length >= MIN_JOINED_PART_LENGTH)
        out.push(first + second);
    }
  }
  return out;
}

/** `indexedWords` as the text an index field holds. */
export function indexedText(text: string, country: CountryCode): string {
  return indexedWords(text, country).join(' ');
}

/**
 * What a record's specialty codes add to its specialty field: every label and synonym of each code in
 * every page language, and the code's own words, so a query in any language (or naming the code)
 * reaches the record.
 */
export function specialtyNamesOf(codes: ReadonlyArray<string>): string[] {
  const names: string[] = [];
  for (const code of codes) {
    const entry = SPECIALTY_BY_CODE.get(code);
    if (entry === undefined) continue;
    names.push(code, ...Object.values(entry.labels));
    for (const synonyms of Object.values(entry.synonyms) as ReadonlyArray<string>[]) names.push(...synonyms);
  }
  return names;
}

const SPECIALTY_BY_CODE = new Map(SPECIALTY_VOCABULARY.map((entry) => [entry.code as string, entry]));
