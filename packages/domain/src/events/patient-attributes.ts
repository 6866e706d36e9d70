import { z } from 'zod';

/**
 * What patients filter on beside the specialty: the languages spoken, whether the place accepts new
 * patients, wheelchair access, and the public insurance or health-system contracts it holds. Crawls
 * carry them in `observed` (each optional: a crawler that does not know says nothing), the fold keeps
 * them with the crawl, and the record returns them only when named in `fields=`. Unknown is never a
 * value a filter matches: a record whose crawl did not say is left out of `acceptingNewPatients=true`
 * and of `acceptingNewPatients=false` alike.
 */

/** ISO 639-1 codes of the languages a crawl may name (the page languages and the common others). */
export const LANGUAGE_CODES = [
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'fa',
  'fi',
  'fr',
  'he',
  'hi',
  'hr',
  'hu',
  'it',
  'ja',
  'ko',
  'nl',
  'no',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sq',
  'sr',
  'sv',
  'tr',
  'uk',
  'ur',
  'vi',
  'zh',
] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export type InsuranceEntry = { code: string; name: string; description: string };

/**
 * The public insurance schemes and health-system contracts of each live country: the codes the
 * `insurance` field holds and the `insurance=` filter takes (docs/api.md, "Insurance codes", lists
 * them and a unit spec holds it to this table). A code is unique within its country; the same letters
 * may mean another scheme elsewhere (Spain's and Portugal's `sns`), which is why the filter always goes
 * with `country`.
 */
export const INSURANCE_SCHEMES = {
  de: [
    {
      code: 'gkv',
      name: 'Gesetzliche Krankenversicherung',
      description: 'Statutory health insurance (Kassenpatienten): the practice bills the statutory funds.',
    },
    {
      code: 'pkv',
      name: 'Private Krankenversicherung',
      description: 'Private health insurance (Privatpatienten), billed under the GOÄ/GOZ fee scales.',
    },
  ],
  es: [
    {
      code: 'sns',
      name: 'Sistema Nacional de Salud',
      description: 'The public national health system, through the regional health services.',
    },
    {
      code: 'muface',
      name: 'MUFACE',
      description: 'The mutual insurance of state civil servants, through its contracted providers.',
    },
    {
      code: 'isfas',
      name: 'ISFAS',
      description: 'The social insurance of the armed forces, through its contracted providers.',
    },
    {
      code: 'mugeju',
      name: 'MUGEJU',
      description: 'The mutual insurance of the judiciary, through its contracted providers.',
    },
  ],
  it: [
    {
      code: 'ssn',
      name: 'Servizio Sanitario Nazionale',
      description: 'The national health service: a contracted (convenzionato) practice or public provider.',
    },
  ],
  pt: [
    {
      code: 'sns',
      name: 'Serviço Nacional de Saúde',
      description: 'The national health service, or a provider under an SNS convention.',
    },
    {
      code: 'adse',
      name: 'ADSE',
      description: 'The health subsystem of public administration workers, through its convention network.',
    },
  ],
  // Keyed by dataset code (events.ts's LIVE_COUNTRY_CODES, held equal by the unit spec): this module
  // imports nothing of events.ts, which takes the crawl fields from here.
} as const satisfies Record<string, ReadonlyArray<InsuranceEntry>>;

type InsuranceTable = typeof INSURANCE_SCHEMES;
export type InsuranceCountry = keyof InsuranceTable;
export type InsuranceCode = InsuranceTable[InsuranceCountry][number]['code'];

/** Every insurance code of any country, each once, sorted. */
export const INSURANCE_CODES: InsuranceCode[] = [
  ...new Set(Object.values(INSURANCE_SCHEMES).flatMap((schemes) => schemes.map((scheme) => scheme.code))),
].sort();

// Worked out once: every served record's projection reads its dataset's list.
const INSURANCE_CODES_OF_COUNTRY: ReadonlyMap<string, ReadonlyArray<InsuranceCode>> = new Map(
  Object.entries(INSURANCE_SCHEMES).map(([country, schemes]) => [
    country,
    schemes.map((scheme) => scheme.code),
  ]),
);

/** The insurance codes of one dataset, in the table's order; none for a dataset without live data. */
export function insuranceCodesOf(country: string): ReadonlyArray<InsuranceCode> {
  return INSURANCE_CODES_OF_COUNTRY.get(country) ?? [];
}

/** Each country's codes, as descriptions list them: `de: gkv, pkv; es: sns, …`. */
export const INSURANCE_CODES_BY_COUNTRY_TEXT = Object.keys(INSURANCE_SCHEMES)
  .map((country) => `${country}: ${insuranceCodesOf(country).join(', ')}`)
  .join('; ');

// Far above any real list and far below what hurts (the index only ever sees the known codes): a longer
// list or entry is bad data, and the crawl becomes a dead letter with the reason, like any crawl field.
const MAX_OBSERVED_ENTRIES = 100;
const MAX_OBSERVED_ENTRY_CHARACTERS = 200;
const observedEntry = z
  .string()
  .max(MAX_OBSERVED_ENTRY_CHARACTERS, `Expected at most ${MAX_OBSERVED_ENTRY_CHARACTERS} characters`);
const observedList = z.array(observedEntry).max(MAX_OBSERVED_ENTRIES).nullable().optional();

/**
 * The attributes as crawled: the four optional fields of `observed` (events.ts spreads them in), each
 * null or absent when the crawler does not know. A value outside the code lists is not an error in a
 * crawl: `patientAttributesOf` drops it, so one odd entry never turns a crawl into a dead letter and
 * never reaches the record.
 */
export const observedPatientAttributesSchema = {
  languages: observedList,
  acceptingNewPatients: z.boolean().nullable().optional(),
  wheelchairAccessible: z.boolean().nullable().optional(),
  insurance: observedList,
};

/** The attributes as served: empty lists and nulls where the crawl said nothing. */
export const patientAttributesSchema = z.object({
  languages: z.array(z.enum(LANGUAGE_CODES)).meta({
    description:
      'API 1.3. Languages spoken, as ISO 639-1 codes in alphabetical order; empty when the source does not say.',
  }),
  acceptingNewPatients: z.boolean().nullable().meta({
    description: 'API 1.3. Whether the place takes new patients; null when the source does not say.',
  }),
  wheelchairAccessible: z.boolean().nullable().meta({
    description: 'API 1.3. Whether the entrance is wheelchair accessible; null when the source does not say.',
  }),
  insurance: z.array(z.enum(INSURANCE_CODES)).meta({
    description: `API 1.3. Public insurance schemes and health-system contracts the place works with, as codes of its own country (${INSURANCE_CODES_BY_COUNTRY_TEXT}; docs/api.md, "Insurance codes"), in alphabetical order; empty when the source does not say.`,
  }),
});
export type PatientAttributes = z.infer<typeof patientAttributesSchema>;

/**
 * The four fields of a crawl's `observed`. Typed by the schema in a new event, but a crawl stored before
 * they were declared passed the loose crawl schema with whatever it had under these names, and stored
 * events are folded as stored, so any value may come back: anything but the declared shape is unknown.
 */
type ObservedPatientAttributes = {
  languages?: unknown;
  acceptingNewPatients?: unknown;
  wheelchairAccessible?: unknown;
  insurance?: unknown;
};

/**
 * The served attributes of a crawl in a dataset: codes trimmed and lowercased (a language also loses a
 * region, `pt-BR` is `pt`), kept only when on the lists (the dataset's own insurance codes), each once,
 * sorted, so the record and its filters agree whatever order, case or spelling the source used.
 */
export function patientAttributesOf(observed: ObservedPatientAttributes, country: string): PatientAttributes {
  return {
    languages: knownCodes(observed.languages, LANGUAGE_CODES, primaryLanguageSubtag),
    acceptingNewPatients: booleanOrNull(observed.acceptingNewPatients),
    wheelchairAccessible: booleanOrNull(observed.wheelchairAccessible),
    insurance: knownCodes(observed.insurance, insuranceCodesOf(country), (text) => text.trim().toLowerCase()),
  };
}

// `pt-BR`, `zh_Hant`: the language is the part before the first separator.
function primaryLanguageSubtag(text: string): string {
  return (text.trim().toLowerCase().split(/[-_]/, 1)[0] ?? '').trim();
}

function booleanOrNull(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

function knownCodes<Code extends string>(
  values: unknown,
  known: ReadonlyArray<Code>,
  normalize: (text: string) => string,
): Code[] {
  if (!Array.isArray(values)) return [];
  const kept = new Set<Code>();
  for (const value of values as unknown[]) {
    if (typeof value !== 'string') continue;
    const code = normalize(value);
    if ((known as ReadonlyArray<string>).includes(code)) kept.add(code as Code);
  }
  return [...kept].sort();
}
