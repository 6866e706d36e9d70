import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import type { CountryCode } from '../events/events.js';
import { PAGE_LANGUAGE_CODES, type PageLanguage } from '../places/profile-url.js';
import {
  countryFromQuery,
  countryFromTool,
  langWithDefault,
  parseParameters,
  type ParameterError,
} from '../requests/query-parameters.js';
import { fail, type Result } from '../shared/result.js';
import { SPECIALTY_CODES, isSpecialtyCode, specialtyLabel } from '../places/specialty-vocabulary.js';

/**
 * The specialties list (`GET /api/v1/specialties` and the MCP tool `list_specialties`): the
 * codes search's `specialty` accepts, each with its label in one page language.
 *
 * - Without `country`: the whole vocabulary, in code order, `{ code, label }`. It needs no index.
 * - With `country`: like the cities list, only the codes that served records of that dataset carry,
 *   each with `count` (how many records `specialty=<code>` finds there), most records first, then code.
 *   One terms aggregation on `specialtyCodes`, limited to the vocabulary's codes (a code dropped from
 *   the vocabulary but still in documents not yet reindexed has no label, so it is not listed).
 */

export const DEFAULT_SPECIALTY_LANGUAGE: PageLanguage = 'en';

export type SpecialtiesParams = { lang: PageLanguage; country?: CountryCode };
export type SpecialtyListEntry = { code: string; label: string; count?: number };
export type SpecialtiesPage = { specialties: SpecialtyListEntry[] };

const COUNTRY_DESCRIPTION = `Optional dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted} (as in search). With it, only the codes of that dataset’s records are listed, each with its count; without it, the whole vocabulary.`;
const LANG_DESCRIPTION = `Page language of the labels: ${PAGE_LANGUAGE_CODES.join(', ')} (case-insensitive); default ${DEFAULT_SPECIALTY_LANGUAGE}.`;

// Case-insensitive, like `lang` on the record routes (record-shape.ts): one rule for one parameter name.
const lang = langWithDefault(DEFAULT_SPECIALTY_LANGUAGE).describe(LANG_DESCRIPTION);

/** The query string of `GET /api/v1/specialties`. Use `parseSpecialtiesParams` for the full rules. */
export const specialtiesParamsSchema = z.object({
  country: countryFromQuery.optional().describe(COUNTRY_DESCRIPTION),
  lang,
});

/** Arguments of the MCP tool `list_specialties`: the same rules over typed JSON values. */
export const specialtiesToolInputSchema = z.object({
  country: countryFromTool.optional().describe(COUNTRY_DESCRIPTION),
  lang,
});

// Response schemas are open objects: clients ignore fields they do not know (docs/api.md, Compatibility).
// Shared by the OpenAPI document (which registers them as components) and the MCP tool's output schema.
export const specialtyEntrySchema = z.looseObject({
  code: z.string().meta({
    description: "The stable specialty code, exactly as search's `specialty` parameter accepts it",
    examples: ['dentistry', 'general-practice'],
  }),
  label: z.string().meta({
    description: 'Display label in the requested page language',
    examples: ['Dentistry', 'Zahnmedizin'],
  }),
  count: z.number().int().min(1).optional().meta({
    description: 'Only with `country`: published records of that dataset carrying the code',
  }),
});

/** The specialties list, as served by `GET /api/v1/specialties` and the MCP tool `list_specialties`. */
export const specialtiesPageSchema = z.looseObject({
  specialties: z.array(specialtyEntrySchema).max(SPECIALTY_CODES.length),
});

/** Validates a parsed query string: the rules of every operation (unknown, repeated, keys in the URL). */
export function parseSpecialtiesParams(
  raw: Record<string, unknown>,
): Result<SpecialtiesParams, ParameterError[]> {
  return parseParameters(specialtiesParamsSchema, raw, 'query');
}

/** Validates MCP tool arguments (`null` counts as absent). */
export function parseSpecialtiesToolInput(input: unknown): Result<SpecialtiesParams, ParameterError[]> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail([{ parameter: 'arguments', reason: 'must be an object' }]);
  }
  return parseParameters(specialtiesToolInputSchema, input as Record<string, unknown>, 'tool');
}

export type SpecialtyCountsRequestBody = {
  size: 0;
  query: { bool: { filter: [{ term: { served: true } }, { term: { country: CountryCode } }] } };
  aggs: {
    specialties: {
      terms: {
        field: 'specialtyCodes';
        size: number;
        include: string[];
        order: [{ _count: 'desc' }, { _key: 'asc' }];
      };
    };
  };
  track_total_hits: false;
};

/** The part of an aggregation response the list reads. */
export type SpecialtyCountsAggregation = {
  specialties?: { buckets: ReadonlyArray<{ key: unknown; doc_count: number }> };
};

/** The whole vocabulary with labels in `lang`: the list without `country`. */
export function specialtyVocabularyPage(lang: PageLanguage): SpecialtiesPage {
  return { specialties: SPECIALTY_CODES.map((code) => ({ code, label: labelOf(code, lang) })) };
}

/** How many served records of the dataset carry each code of the vocabulary, most first, then code. */
export function buildSpecialtyCountsRequest(country: CountryCode): SpecialtyCountsRequestBody {
  return {
    size: 0,
    // Served records of the dataset only: tombstones stay in the index (see search-query.ts).
    query: { bool: { filter: [{ term: { served: true } }, { term: { country } }] } },
    aggs: {
      specialties: {
        terms: {
          field: 'specialtyCodes',
          size: SPECIALTY_CODES.length,
          include: [...SPECIALTY_CODES],
          order: [{ _count: 'desc' }, { _key: 'asc' }],
        },
      },
    },
    track_total_hits: false,
  };
}

/** The list with `country`; no aggregation (no index yet) lists nothing. */
export function toSpecialtyCountsPage(
  lang: PageLanguage,
  aggregations: SpecialtyCountsAggregation | undefined,
): SpecialtiesPage {
  const buckets = aggregations?.specialties?.buckets ?? [];
  return {
    specialties: buckets.flatMap(({ key, doc_count: count }) => {
      const code = String(key);
      return isSpecialtyCode(code) ? [{ code, label: labelOf(code, lang), count }] : [];
    }),
  };
}

function labelOf(code: string, lang: PageLanguage): string {
  const label = specialtyLabel(code, lang);
  // The vocabulary spec proves every code has every label; a miss here is a programming error.
  if (label === undefined) throw new Error(`no ${lang} label for specialty code ${code}`);
  return label;
}
