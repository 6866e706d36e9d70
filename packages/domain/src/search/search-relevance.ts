import type { CountryCode } from '../events/events.js';
import type { GeoPoint } from './geo.js';
import { citySlugsByWord } from './place-names.js';
import { wordsOf } from './search-analysis.js';

/**
 * The relevance query of `sort=relevance` (docs/api.md, "Ranking"): how well a record matches `q`, as
 * one Elasticsearch query over the fields search-analysis.ts writes. Only the scoring: the filters
 * (country, city, served, ...) stay in the request's filter clauses and never change a score.
 *
 * - Every word of `q` must match one field, the name, the specialties or the city (with four or more
 *   words, all but one: a stray word in a long query does not empty the page). Each field weighs its
 *   own (name 3, specialties 2, city 1.5), and the best field counts for a word, with a little of the
 *   others (a word in both the name and the specialties beats one in the name alone).
 * - Typos: a word of 4 to 6 letters matches with one edit, a longer one with two, a shorter one only
 *   exactly; the first letter must be right (people rarely mistype it, and it keeps the query fast).
 *   An exact match scores above a corrected one.
 * - The last word may be a prefix (typing "Zahnarzt Ber" finds Berlin), scored below a whole word.
 * - Run-together words: a word may also match two neighbouring words of the name, the specialties or
 *   the city typed without the space between them ("clinicadental" finds "Clínica Dental",
 *   "zahnarztpraxis" finds "Zahnarzt-Praxis"), exactly or with a typo, scored as a specialty word. Not as
 *   a prefix: a half-typed word would match every pair it begins.
 * - A record whose name holds the words as a phrase (in order, at most two words apart) scores higher.
 * - Place names in every language (place-names.ts): words that make up another name of a city of the
 *   dataset ("munich", "monaco di baviera") also match that city's records, as the city field does.
 * - With `near`, a record's score is multiplied by a decay of its distance: 1 at the point, one half at
 *   half the radius, so among equally good matches the nearer comes first.
 */

export const RELEVANCE_FIELDS = { nameText: 3, specialtyText: 2, cityText: 1.5 } as const;
type RelevanceField = keyof typeof RELEVANCE_FIELDS;

/** Edits allowed: none below 4 letters, 1 from 4 to 6, 2 from 7 (Elasticsearch's AUTO with these bounds). */
export const TYPO_FUZZINESS = 'AUTO:4,7';
/** A corrected word scores this share of an exact one. */
const CORRECTED_WEIGHT = 0.5;
/** A word matching two joined words (search-analysis.ts, `joinedWords`) scores as a specialty word. */
export const JOINED_WEIGHT = 2;
/** A prefix scores this share of a whole word. */
const PREFIX_WEIGHT = 0.6;
/** What the other fields of a word add to its best field's score. */
const TIE_BREAKER = 0.2;
const PHRASE_BOOST = 2;
const PHRASE_SLOP = 2;
/** A pair of neighbouring words found together in the specialties or the city. */
const PAIR_BOOST = { specialtyText: 2, cityText: 2 } as const;
/** From this many words, one may be missing. */
const WORDS_ALL_BUT_ONE_FROM = 4;

type MatchClause = {
  match: Partial<
    Record<
      RelevanceField | 'joinedText',
      { query: string; boost: number; fuzziness?: string; prefix_length?: number }
    >
  >;
};
type PrefixClause = { prefix: Partial<Record<RelevanceField, { value: string; boost: number }>> };
/** A city by another of its names: its records, scored as a match in the city field. */
type CitySlugsClause = { constant_score: { filter: { terms: { citySlug: string[] } }; boost: number } };
type WordClause = {
  dis_max: { queries: Array<MatchClause | PrefixClause | CitySlugsClause>; tie_breaker: number };
};
type PhraseClause = {
  match_phrase: Partial<Record<RelevanceField, { query: string; slop: number; boost: number }>>;
};

export type ScoredTextQuery = {
  bool: {
    must: [{ bool: { should: WordClause[]; minimum_should_match: number } }];
    should: PhraseClause[];
  };
};

export type DistanceDecay = {
  gauss: { location: { origin: GeoPoint; scale: string; offset: string; decay: number } };
};

/**
 * The scoring query of a `q`, or null when q has no word (e.g. "!!!"): a q without words matches
 * nothing, as in literal search, which the caller says with a filter that matches no record.
 */
export function relevanceTextQuery(q: string, country: CountryCode): ScoredTextQuery | null {
  const words = wordsOf(q);
  if (words.length === 0) return null;
  const last = words.length - 1;
  const citySlugs = citySlugsByWord(country, words);
  const perWord = words.map((word, index) => wordClause(word, index === last, citySlugs[index] ?? []));
  return {
    bool: {
      must: [
        {
          bool: {
            should: perWord,
            minimum_should_match: words.length >= WORDS_ALL_BUT_ONE_FROM ? words.length - 1 : words.length,
          },
        },
      ],
      should: words.length > 1 ? phraseClauses(words) : [],
    },
  };
}

/**
 * Word order: the whole q as a phrase in the name, and each pair of neighbouring words as a phrase in
 * the specialties and the city, so "medicina general barcelona" prefers general practice (a label of
 * two words) over a dentist whose specialties hold "medicina" and "general" apart, and "santa pola"
 * prefers Santa Pola over Santa Ponsa and Pola de Lena.
 */
function phraseClauses(words: ReadonlyArray<string>): PhraseClause[] {
  const clauses: PhraseClause[] = [
    { match_phrase: { nameText: { query: words.join(' '), slop: PHRASE_SLOP, boost: PHRASE_BOOST } } },
  ];
  for (let index = 1; index < words.length; index += 1) {
    const pair = `${words[index - 1]} ${words[index]}`;
    for (const field of ['specialtyText', 'cityText'] as const) {
      clauses.push({ match_phrase: { [field]: { query: pair, slop: 0, boost: PAIR_BOOST[field] } } });
    }
  }
  return clauses;
}

// Boosts sent with two decimals: 1.5 × 0.6 is 0.9, not 0.8999999999999999.
const boost = (weight: number, share = 1) => Math.round(weight * share * 100) / 100;

function wordClause(word: string, isLast: boolean, citySlugs: ReadonlyArray<string>): WordClause {
  const queries: Array<MatchClause | PrefixClause | CitySlugsClause> = [];
  for (const [field, weight] of Object.entries(RELEVANCE_FIELDS) as Array<[RelevanceField, number]>) {
    queries.push({ match: { [field]: { query: word, boost: boost(weight) } } });
    queries.push({
      match: {
        [field]: {
          query: word,
          boost: boost(weight, CORRECTED_WEIGHT),
          fuzziness: TYPO_FUZZINESS,
          prefix_length: 1,
        },
      },
    });
    if (isLast) queries.push({ prefix: { [field]: { value: word, boost: boost(weight, PREFIX_WEIGHT) } } });
  }
  queries.push(
    { match: { joinedText: { query: word, boost: JOINED_WEIGHT } } },
    {
      match: {
        joinedText: {
          query: word,
          boost: boost(JOINED_WEIGHT, CORRECTED_WEIGHT),
          fuzziness: TYPO_FUZZINESS,
          prefix_length: 1,
        },
      },
    },
  );
  if (citySlugs.length > 0) {
    queries.push({
      constant_score: { filter: { terms: { citySlug: [...citySlugs] } }, boost: RELEVANCE_FIELDS.cityText },
    });
  }
  return { dis_max: { queries, tie_breaker: TIE_BREAKER } };
}

/** The distance decay of a relevance search with `near`: half the score at half the radius. */
export function distanceDecay(near: GeoPoint, radiusMeters: number): DistanceDecay {
  return {
    gauss: {
      location: {
        origin: near,
        scale: `${Math.max(1, Math.round(radiusMeters / 2))}m`,
        offset: '0m',
        decay: 0.5,
      },
    },
  };
}
