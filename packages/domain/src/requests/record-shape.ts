import { z } from 'zod';
import { DOCTOR_EXTRA_KEYS, doctorExtrasSchema, type DoctorExtras } from '../places/doctor-extras.js';
import { DOCTOR_KEYS, doctorSchema, type Doctor } from '../places/doctor.js';
import { PAGE_LANGUAGE_CODES, profileUrlIn, type PageLanguage } from '../places/profile-url.js';
import { parseParameters, type ParameterError } from './query-parameters.js';
import { ok, type Result } from '../shared/result.js';

/**
 * `fields=` and `lang=`: how a request shapes the records it gets back (search, get, batch).
 * Neither changes which records match, so neither is part of a search cursor: a cursor is valid with
 * any `fields` and `lang`, and a client may change them between pages.
 *
 * - `fields` names top-level fields of the record: the Doctor's and the extras (doctor-extras.ts), or
 *   `*` for every one. `id` is always included. Fields come out in schema order (the Doctor's, then the
 *   extras), whatever the order asked. Without `fields` the record is exactly the Doctor: the extras
 *   are returned only when named (or with `*`).
 * - `lang` is a page language: `profileUrl` is then the record's page in that language (same origin and
 *   slugs). Without it, the stored (English) URL.
 */

/** Every name `fields` accepts, in the order the fields come out. */
export const RECORD_FIELD_NAMES = [...DOCTOR_KEYS, ...DOCTOR_EXTRA_KEYS];
export type RecordFieldName = (typeof RECORD_FIELD_NAMES)[number];
export const ALL_FIELDS = '*';

/** The fields a request selected, in output order (always with `id`). */
export type FieldSelection = ReadonlyArray<RecordFieldName>;

/** `fields` absent: the Doctor record; present: a selected record. */
export type RecordShape =
  { lang?: PageLanguage; fields?: undefined } | { lang?: PageLanguage; fields: FieldSelection };

/** A record with only the selected fields: `id`, and any of the others, in this order. */
export const selectedDoctorSchema = doctorSchema
  .partial()
  .required({ id: true })
  .extend(doctorExtrasSchema.partial().shape)
  .meta({
    description:
      'API 1.2. A record with only the fields named in `fields` (always `id`), in this order; the extras (`specialtyCodes`, `openingHours`, and since API 1.3 `languages`, `acceptingNewPatients`, `wheelchairAccessible`, `insurance`) only when named or with `fields=*`.',
  });
export type SelectedDoctor = z.output<typeof selectedDoctorSchema>;

/** The record a request with this shape gets: the Doctor, or (with `fields`) a selected record. */
export type ShapedRecord<Shape extends RecordShape> = Shape extends { fields: FieldSelection }
  ? SelectedDoctor
  : Doctor;

const FIELDS_LISTED = `${RECORD_FIELD_NAMES.join(', ')}; or * for all`;
export const FIELDS_DESCRIPTION = `API 1.2. Comma-separated names of the record fields to return (\`id\` always comes back), or \`*\` for every field: ${RECORD_FIELD_NAMES.join(', ')}. Names are case-sensitive; fields come out in this order. \`specialtyCodes\` and \`openingHours\` (API 1.2), \`languages\`, \`acceptingNewPatients\`, \`wheelchairAccessible\` and \`insurance\` (API 1.3) are returned only when named here. Without \`fields\`, the full 1.1 record.`;
export const LANG_DESCRIPTION = `API 1.2. Page language of \`profileUrl\`: ${PAGE_LANGUAGE_CODES.join(', ')} (case-insensitive). Without it, the English page.`;

/** Reads a `fields` value: the selected names in output order, or why not (no message quotes the value). */
export function parseFields(
  text: string,
): { ok: true; value: FieldSelection } | { ok: false; error: string } {
  if (text === ALL_FIELDS) return { ok: true, value: RECORD_FIELD_NAMES };
  if (text === '') return { ok: false, error: `must name at least one field; expected ${FIELDS_LISTED}` };
  const names = text.split(',');
  const chosen = new Set<string>(['id']);
  const named = new Set<string>();
  for (const [index, name] of names.entries()) {
    const entry = `entry ${index + 1}`;
    if (name === '') return { ok: false, error: `${entry} is empty; expected ${FIELDS_LISTED}` };
    if (name === ALL_FIELDS) return { ok: false, error: `* must be given alone; expected ${FIELDS_LISTED}` };
    if (!(RECORD_FIELD_NAMES as ReadonlyArray<string>).includes(name)) {
      return { ok: false, error: `${entry} is not a field name; expected ${FIELDS_LISTED} (case-sensitive)` };
    }
    if (named.has(name))
      return { ok: false, error: `${entry} repeats a field; name each once from ${FIELDS_LISTED}` };
    named.add(name);
    chosen.add(name);
  }
  return { ok: true, value: RECORD_FIELD_NAMES.filter((name) => chosen.has(name)) };
}

const LANG_REASON = `must be one of ${PAGE_LANGUAGE_CODES.join(', ')}`;

/** `fields` as a query parameter or tool argument (the same text in both). */
export const fieldsParameter = z
  .string({ error: `must be a comma-separated list of field names; expected ${FIELDS_LISTED}` })
  .transform((text, context): FieldSelection => {
    const parsed = parseFields(text);
    if (parsed.ok) return parsed.value;
    context.issues.push({ code: 'custom', message: parsed.error, input: text });
    return z.NEVER;
  })
  .optional()
  .describe(FIELDS_DESCRIPTION);

/** `lang` as a query parameter or tool argument: a page language in any case, normalized to lowercase. */
export const langParameter = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(PAGE_LANGUAGE_CODES as [PageLanguage, ...PageLanguage[]], { error: LANG_REASON }),
  )
  .optional()
  .describe(LANG_DESCRIPTION);

/** The query string of an operation whose only parameters are `fields` and `lang` (single get). */
export const recordShapeParamsSchema = z.object({ fields: fieldsParameter, lang: langParameter });

/** Validates `fields` and `lang` (every bad one at once; unknown and repeated names refused). */
export function parseRecordShape(raw: Record<string, unknown>): Result<RecordShape, ParameterError[]> {
  const parsed = parseParameters(recordShapeParamsSchema, raw, 'query');
  if (!parsed.ok) return parsed;
  return ok(recordShapeOf(parsed.value.fields, parsed.value.lang));
}

/** The shape of parsed `fields` and `lang`, the absent ones left out. */
export function recordShapeOf(
  fields: FieldSelection | undefined,
  lang: PageLanguage | undefined,
): RecordShape {
  return { ...(fields === undefined ? {} : { fields }), ...(lang === undefined ? {} : { lang }) };
}

/** Whether records of this shape need the stored extras (`_source.extras`). */
export function needsExtras(shape: RecordShape): boolean {
  return shape.fields?.some((name) => (DOCTOR_EXTRA_KEYS as ReadonlyArray<string>).includes(name)) ?? false;
}

// A document projected before the extras existed (or before some of them, such as API 1.3's) lacks them
// until `reindex --replay`: the missing ones read as unknown.
const UNKNOWN_EXTRAS: DoctorExtras = {
  specialtyCodes: [],
  openingHours: null,
  languages: [],
  acceptingNewPatients: null,
  wheelchairAccessible: null,
  insurance: [],
  observedAt: null,
  updatedAt: null,
  verifiedAt: null,
};

/**
 * The record a request with this shape gets, from the stored Doctor and extras. Without `fields` and
 * `lang` it is the stored Doctor itself.
 */
export function shapeRecord<Shape extends RecordShape>(
  doctor: Doctor,
  extras: DoctorExtras | undefined,
  shape: Shape,
): ShapedRecord<Shape> {
  const { lang, fields } = shape;
  const localized =
    lang === undefined ? doctor : { ...doctor, profileUrl: profileUrlIn(doctor.profileUrl, lang) };
  if (fields === undefined) return localized;
  const all: Record<string, unknown> = { ...localized, ...UNKNOWN_EXTRAS, ...extras };
  // Built in schema order, so every transport (and a writer that does not reorder) shows that order.
  return Object.fromEntries(fields.map((name) => [name, all[name]])) as ShapedRecord<Shape>;
}
