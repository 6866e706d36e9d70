import { z } from 'zod';
import { compileEventFastPath, type EventFastPath } from './event-fast-path.js';
import { observedPatientAttributesSchema } from './patient-attributes.js';
import { fail, ok, type Result } from '../shared/result.js';

/** Every dataset code the API accepts for `country`. */
export const COUNTRY_CODES = ['de', 'es', 'fr', 'gb', 'it', 'mx', 'pt'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** Dataset codes with live data; the others are accepted and return empty pages. */
export const LIVE_COUNTRY_CODES = ['de', 'es', 'it', 'pt'] as const satisfies ReadonlyArray<CountryCode>;

/** Lowercase URL slug shared by city and profile slugs (and the API's `city` parameter). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An ISO 3166-1 alpha-2 country code as crawled and served in addresses (uppercase, unlike dataset codes). */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;

export const PLACE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const EVENT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

// "24:00" is allowed so a range can end at midnight.
export const TIME_OF_DAY_PATTERN = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/**
 * The longest text each event field may carry, in characters. Far above any real value, and far below
 * what breaks the index: a keyword term over 32,766 bytes (a slug; the folded name is cut to 200 code
 * points for sorting) makes Elasticsearch refuse the whole document. A longer value is bad data: the
 * event becomes a dead letter with the reason.
 */
export const TEXT_LIMITS = {
  name: 1_000,
  addressLine: 500,
  postalCode: 32,
  phone: 64,
  email: 320,
  url: 2_048,
  label: 200,
  slug: 200,
  reason: 1_000,
} as const;

/**
 * The longest NDJSON line an event may arrive on. No real event comes near this (every field is bounded);
 * a longer line is bad data. Its dead letter keeps the first MAX_EVENT_LINE_CHARACTERS, so one runaway
 * line cannot swell a job, Redis or the table.
 */
export const MAX_EVENT_LINE_CHARACTERS = 1_000_000;

const MAX_WORKING_HOURS_DAYS = 14;

const boundedText = (max: number) => z.string().max(max, `Expected at most ${max} characters`);

export const phoneTypeSchema = z.enum(['mobile', 'landline', 'other']);
export type PhoneType = z.infer<typeof phoneTypeSchema>;

export const countryCodeSchema = z.enum(COUNTRY_CODES);
export const slugSchema = boundedText(TEXT_LIMITS.slug).regex(
  SLUG_PATTERN,
  'Expected a lowercase slug like "bad-homburg"',
);
const observedTimeRangeSchema = z.looseObject({
  open: z.string().regex(TIME_OF_DAY_PATTERN, 'Expected HH:MM'),
  close: z.string().regex(TIME_OF_DAY_PATTERN, 'Expected HH:MM'),
});

// Crawled data is loose on purpose: crawlers add fields over time and an unknown field must not turn
// a whole crawl into a dead letter. Nothing here is public until `toDoctor` picks it field by field.
const observedAddressSchema = z.looseObject({
  street: boundedText(TEXT_LIMITS.addressLine).nullable(),
  city: boundedText(TEXT_LIMITS.addressLine).nullable(),
  state: boundedText(TEXT_LIMITS.addressLine).nullable(),
  postalCode: boundedText(TEXT_LIMITS.postalCode).nullable(),
  country: z.string().regex(COUNTRY_CODE_PATTERN, 'Expected a two-letter uppercase country code').nullable(),
});

// Keyed by the source's day labels: a week, with room for extra labels (holidays), never unbounded.
const workingHoursSchema = z
  .record(boundedText(TEXT_LIMITS.label), z.array(observedTimeRangeSchema).max(48))
  .refine((hours) => Object.keys(hours).length <= MAX_WORKING_HOURS_DAYS, {
    message: `Expected at most ${MAX_WORKING_HOURS_DAYS} days`,
  });

export const observedSchema = z.looseObject({
  name: boundedText(TEXT_LIMITS.name).nullable(),
  legalName: boundedText(TEXT_LIMITS.name).nullable(),
  address: observedAddressSchema,
  location: z
    .looseObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullable(),
  phone: boundedText(TEXT_LIMITS.phone).nullable(),
  phoneType: phoneTypeSchema.nullable(),
  additionalPhones: z
    .array(z.looseObject({ number: boundedText(TEXT_LIMITS.phone), type: phoneTypeSchema.nullable() }))
    .max(50),
  email: boundedText(TEXT_LIMITS.email).nullable(),
  website: boundedText(TEXT_LIMITS.url).nullable(),
  googleMapsUrl: boundedText(TEXT_LIMITS.url).nullable(),
  primaryType: boundedText(TEXT_LIMITS.label).nullable(),
  specialties: z.array(boundedText(TEXT_LIMITS.label)).max(200),
  rating: z.number().min(0).max(5).nullable(),
  reviewCount: z.number().int().min(0).nullable(),
  whatsappEligible: z.boolean(),
  workingHours: workingHoursSchema.nullable(),
  // API 1.3: languages, accepting new patients, wheelchair access, insurance; optional, so a crawl
  // without them (every crawl before them) stays valid and reads as unknown.
  ...observedPatientAttributesSchema,
});
export type Observed = z.infer<typeof observedSchema>;

/** Internal crawl bookkeeping: stored with the event, never indexed, never served. */
export const crawlMetadataSchema = z.looseObject({
  sourceUrl: boundedText(TEXT_LIMITS.url),
  crawlId: boundedText(TEXT_LIMITS.label),
  httpStatus: z.number().int(),
  fetchedAt: z.iso.datetime({ offset: true }),
  durationMs: z.number().min(0),
  contentHash: boundedText(TEXT_LIMITS.label),
});
export type CrawlMetadata = z.infer<typeof crawlMetadataSchema>;

export const publicationSchema = z.strictObject({
  country: countryCodeSchema,
  citySlug: slugSchema,
  profileSlug: slugSchema,
});
export type Publication = z.infer<typeof publicationSchema>;

const reasonSchema = z.strictObject({ reason: boundedText(TEXT_LIMITS.reason).min(1) });
const emptyPayloadSchema = z.strictObject({});

/**
 * `place.merged`, on the stream of the place merged away: `into` is the place that survives (the same
 * practice's other record). Chains (A into B, B into C) are followed when the merge is read (merges.ts).
 */
export const mergePayloadSchema = z.strictObject({
  into: z.string().regex(PLACE_ID_PATTERN, 'Expected 1-128 characters of A-Z a-z 0-9 _ -'),
});

function eventSchema<Type extends string, Payload extends z.ZodType>(type: Type, payload: Payload) {
  // Unknown envelope keys are stripped (not stored); payloads decide their own strictness.
  return z.object({
    eventId: z.string().regex(EVENT_ID_PATTERN, 'Expected 1-200 characters of A-Z a-z 0-9 . _ : -'),
    placeId: z.string().regex(PLACE_ID_PATTERN, 'Expected 1-128 characters of A-Z a-z 0-9 _ -'),
    type: z.literal(type),
    occurredAt: z.iso.datetime({ offset: true }),
    schemaVersion: z.literal(1),
    payload,
  });
}

export const placeEventSchema = z.discriminatedUnion('type', [
  eventSchema('place.crawled', z.looseObject({ observed: observedSchema, crawl: crawlMetadataSchema })),
  eventSchema('place.published', publicationSchema),
  eventSchema('place.unpublished', emptyPayloadSchema),
  eventSchema('place.suppressed', reasonSchema),
  eventSchema('place.unsuppressed', reasonSchema),
  eventSchema('place.closed', emptyPayloadSchema),
  eventSchema('place.reopened', emptyPayloadSchema),
  eventSchema('place.verified', emptyPayloadSchema),
  eventSchema('place.unverified', emptyPayloadSchema),
  eventSchema('place.merged', mergePayloadSchema),
  eventSchema('place.unmerged', emptyPayloadSchema),
]);
export type PlaceEvent = z.infer<typeof placeEventSchema>;
export type PlaceEventType = PlaceEvent['type'];

/** Every event type, in the schema's order: read from the schema, so the two cannot disagree. */
export const PLACE_EVENT_TYPES: ReadonlyArray<PlaceEventType> = placeEventSchema.options.map(
  (option) => option.shape.type.value,
);

const MAX_REPORTED_ISSUES = 10;
const MAX_PATH_SEGMENT = 40;

let eventFastPath: EventFastPath | undefined;

/**
 * Validates one raw event (a JSON value); the reason is meant for dead letters a person will read. A
 * compiled validator accepts the common valid event first, with the value zod would return; whatever it
 * does not accept goes through zod, so every reason is zod's.
 */
export function parsePlaceEvent(raw: unknown): Result<PlaceEvent> {
  // Compiled on first use, so only the processes that validate events pay for it.
  eventFastPath ??= compilePlaceEventFastPath();
  const accepted = eventFastPath(raw) as PlaceEvent | undefined;
  return accepted === undefined ? parsePlaceEventWithZod(raw) : storable(accepted);
}

/** The compiled validator `parsePlaceEvent` tries first (its spec checks it takes valid events). */
export function compilePlaceEventFastPath(): EventFastPath {
  return compileEventFastPath(
    placeEventSchema.options,
    // The one refinement: the JSON Schema words for "at most 14 days".
    new Map([[workingHoursSchema, { maxProperties: MAX_WORKING_HOURS_DAYS }]]),
  );
}

/** `parsePlaceEvent` by zod alone: the reference the fast path is held to (its property test, its bench). */
export function parsePlaceEventWithZod(raw: unknown): Result<PlaceEvent> {
  const result = placeEventSchema.safeParse(raw);
  if (!result.success) return fail(describeIssues(result.error.issues));
  return storable(result.data);
}

const SELF_MERGE_MESSAGE = "Expected another place than the event's own placeId";

function storable(event: PlaceEvent): Result<PlaceEvent> {
  // The one rule across fields (kept out of the schema so the compiled fast path stays plain JSON Schema).
  if (event.type === 'place.merged' && event.payload.into === event.placeId) {
    return fail(`payload.into: ${SELF_MERGE_MESSAGE}`);
  }
  if (hasUnstorableText(event)) return fail(`${unstorableTextPath(event, [])}: ${UNSTORABLE_TEXT_MESSAGE}`);
  return ok(event);
}

const UNSTORABLE_TEXT_MESSAGE = 'Expected text without NUL (\\u0000) or unpaired surrogate characters';
// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// A cheap first look (almost no text has a NUL or any surrogate); the exact test runs only on a hit.
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const MAYBE_UNSTORABLE_TEXT = /[\u0000\ud800-\udfff]/;

function isUnstorable(text: string): boolean {
  return MAYBE_UNSTORABLE_TEXT.test(text) && UNSTORABLE_TEXT.test(text);
}

/**
 * Whether any string (value or key, unknown crawl fields included) is text PostgreSQL cannot hold: the
 * store unpacks events into text columns, and one such event would fail its whole batch on every retry.
 * Such an event is bad data (a dead letter keeps it as sent). Runs on every event, so no allocations.
 */
function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  for (const key in value) {
    if (isUnstorable(key) || hasUnstorableText((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The path of the first unstorable string, for the reason (only for a rejected event). */
function unstorableTextPath(value: unknown, path: ReadonlyArray<string>): string | null {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? describePath(path) : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (UNSTORABLE_TEXT.test(key)) return describePath([...path, key]);
    const found = unstorableTextPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

function describePath(path: ReadonlyArray<string>): string {
  return path.length === 0 ? '(root)' : path.map(shortSegment).join('.');
}

// A path segment can be data (a record key); a long one is cut so the reason stays readable.
function shortSegment(segment: string): string {
  return segment.length > MAX_PATH_SEGMENT ? `${segment.slice(0, MAX_PATH_SEGMENT)}…` : segment;
}

export function describeIssues(issues: ReadonlyArray<z.core.$ZodIssue>): string {
  const lines = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    return `${describePath(issue.path.map(String))}: ${issue.message}`;
  });
  const more = issues.length - MAX_REPORTED_ISSUES;
  if (more > 0) lines.push(`… and ${more} more`);
  return lines.join('; ');
}
