import { z } from 'zod';
import type { Doctor } from '../places/doctor.js';
import type { DoctorExtras } from '../places/doctor-extras.js';
import { parseDoctorId, type DoctorRef } from '../places/doctor-id.js';
import { profilePageKey, type ProfileRef } from '../places/profile-url.js';
import type { ParameterError } from '../requests/query-parameters.js';
import { needsExtras, shapeRecord, type RecordShape, type ShapedRecord } from '../requests/record-shape.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { MergeForward } from '../places/merges.js';
import { SERVED, type TermFilter } from './search-query.js';

/**
 * Batch get, `GET /api/v1/doctors:batchGet?ids=a,b,c` (and the deprecated `GET /api/v1/doctors?ids=…`,
 * which answers the same): up to 100 place ids or canonical profile URLs
 * (any page language, mixed freely) in one request, answered from one Elasticsearch search.
 *
 * - The answer lists the records found, once each, in the order of their first request, and `missing`:
 *   the entries (as sent) that match no served record, in request order. Entries repeated verbatim are
 *   answered once; entries naming the same record (an id and its profile URL, two languages of one
 *   page) give that record once.
 * - Ids are the search's hits (a `post_filter` keeps only them); every profile URL is one bucket of a
 *   `filters` aggregation whose first record by place id is the answer, exactly as single get resolves
 *   a profile URL (its slugs should be unique per city; if data ever breaks that, deterministically).
 * - `ids` is bounded: at most MAX_BATCH_IDS entries and MAX_IDS_LENGTH characters (decoded). The API's
 *   request head limit is set above what that takes URL-encoded (services/api/src/app.ts).
 */

export const MAX_BATCH_IDS = 100;
export const MAX_IDS_LENGTH = 16_384;

const IDS_REASON = `must list 1 to ${MAX_BATCH_IDS} doctor ids or profile URLs (each URL-encoded), comma-separated`;
export const IDS_DESCRIPTION = `API 1.2. Batch get: up to ${MAX_BATCH_IDS} comma-separated doctor ids and/or complete profile URLs (any page language; each URL-encoded), at most ${MAX_IDS_LENGTH} characters in all. Answers \`{ doctors, missing }\` instead of a page. Cannot be combined with the search filters, \`limit\` or \`cursor\`; \`country\` is then not required.`;

/** `ids` as a query parameter: split into its entries (each checked by `parseDoctorIds`). */
export const idsParameter = z
  .string({ error: IDS_REASON })
  .refine((text) => text !== '', { error: IDS_REASON })
  .refine((text) => text.length <= MAX_IDS_LENGTH, {
    error: `must be at most ${MAX_IDS_LENGTH} characters; split the batch into several requests`,
  })
  .transform((text) => text.split(','))
  .refine((entries) => entries.length <= MAX_BATCH_IDS, {
    error: `must list at most ${MAX_BATCH_IDS} entries; split the batch into several requests`,
  })
  .optional()
  .describe(IDS_DESCRIPTION);

/** One distinct entry of a batch: as sent, and what it names. */
export type BatchEntry = { entry: string; ref: DoctorRef };

/** Reads every entry against `siteOrigin`; every bad one is reported, by its 1-based position. */
export function parseDoctorIds(
  entries: ReadonlyArray<string>,
  siteOrigin: string,
): Result<BatchEntry[], ParameterError[]> {
  const errors: ParameterError[] = [];
  const distinct = new Map<string, BatchEntry>();
  for (const [index, entry] of entries.entries()) {
    const position = `entry ${index + 1}`;
    if (entry === '') {
      errors.push({ parameter: 'ids', reason: `${position} is empty` });
      continue;
    }
    if (distinct.has(entry)) continue;
    const parsed = parseDoctorId(entry, siteOrigin);
    if (parsed.ok) distinct.set(entry, { entry, ref: parsed.value });
    else errors.push({ parameter: 'ids', reason: `${position}: ${parsed.error}` });
  }
  return errors.length > 0 ? fail(errors) : ok([...distinct.values()]);
}

type BatchSource = { doctor: Doctor; extras?: DoctorExtras; placeId: string };
type BatchHit = { _source?: BatchSource | undefined };
type ProfileBucket = { first: { hits: { hits: BatchHit[] } } };
/** What a batch search answers: the id hits, and one bucket per profile (in `profiles` order). */
export type BatchResponse = { hits: ReadonlyArray<BatchHit>; profileBuckets: ReadonlyArray<ProfileBucket> };

export type BatchPlan = {
  entries: ReadonlyArray<BatchEntry>;
  placeIds: string[];
  profiles: ProfileRef[];
  /** The search body. */
  body: object;
};

/** The one search that answers a batch. */
export function planBatch(entries: ReadonlyArray<BatchEntry>, shape: RecordShape): BatchPlan {
  const placeIds = new Set<string>();
  const profiles = new Map<string, ProfileRef>();
  for (const { ref } of entries) {
    if ('placeId' in ref) placeIds.add(ref.placeId);
    else profiles.set(profilePageKey(ref.profile), ref.profile);
  }
  const source = needsExtras(shape) ? ['doctor', 'extras', 'placeId'] : ['doctor', 'placeId'];
  const byId = { ids: { values: [...placeIds] } };
  const profileFilters = [...profiles.values()].map(profileFilter);
  const body = {
    size: placeIds.size,
    query: { bool: { filter: [SERVED], should: [byId, ...profileFilters], minimum_should_match: 1 } },
    // Only the ids are hits; the profiles are answered by the aggregation below.
    post_filter: byId,
    _source: source,
    track_total_hits: false,
    ...(profiles.size === 0
      ? {}
      : {
          aggs: {
            profiles: {
              filters: { filters: profileFilters },
              aggs: { first: { top_hits: { size: 1, sort: [{ placeId: 'asc' }], _source: source } } },
            },
          },
        }),
  };
  return { entries, placeIds: [...placeIds], profiles: [...profiles.values()], body };
}

function profileFilter(ref: ProfileRef): { bool: { filter: TermFilter[] } } {
  return {
    bool: {
      filter: [
        { term: { country: ref.country } },
        { term: { citySlug: ref.citySlug } },
        { term: { profileSlug: ref.profileSlug } },
      ],
    },
  };
}

/**
 * `merged` (API 1.4): the `missing` ids that were merged away, each to its survivor (the end of its
 * chain), in `missing` order; present only when there is one, so a batch naming no merged-away id is
 * answered byte for byte as before. The ids stay in `missing` too: they no longer name a served record.
 */
export type DoctorBatch<Record> = { doctors: Record[]; missing: string[]; merged?: { [id: string]: string } };

/**
 * A batch asked again with some entries replaced (a merged-away record's profile URL by its survivor's
 * id, `substitutes`), as the entries first sent: `answer` is the answer to the replaced list, and an
 * entry is missing when what replaced it is.
 */
export function withSubstitutedEntries<Record>(
  entries: ReadonlyArray<string>,
  substitutes: ReadonlyMap<string, string>,
  answer: DoctorBatch<Record>,
): DoctorBatch<Record> {
  const notFound = new Set(answer.missing);
  const missing = new Set(entries.filter((entry) => notFound.has(substitutes.get(entry) ?? entry)));
  return { ...answer, missing: [...missing] };
}

/** The batch with its `merged` map: the missing entries in `forwards` (merged-away ids, merges.ts). */
export function withMergedIds<Record>(
  batch: DoctorBatch<Record>,
  forwards: ReadonlyMap<string, MergeForward>,
): DoctorBatch<Record> {
  const merged = Object.fromEntries(
    batch.missing.flatMap((entry) => {
      const forward = forwards.get(entry);
      return forward === undefined ? [] : [[entry, forward.mergedInto] as const];
    }),
  );
  return Object.keys(merged).length === 0 ? batch : { ...batch, merged };
}

/** The answer to a batch: records once each in request order, and the entries that found none. */
export function toDoctorBatch<Shape extends RecordShape>(
  plan: BatchPlan,
  response: BatchResponse | undefined,
  shape: Shape,
): DoctorBatch<ShapedRecord<Shape>> {
  const byPlaceId = new Map<string, BatchSource>();
  for (const hit of response?.hits ?? []) {
    if (hit._source !== undefined) byPlaceId.set(hit._source.placeId, hit._source);
  }
  const byProfile = new Map<string, BatchSource>();
  plan.profiles.forEach((ref, index) => {
    const first = response?.profileBuckets[index]?.first.hits.hits[0]?._source;
    if (first !== undefined) byProfile.set(profilePageKey(ref), first);
  });

  const doctors: Array<ShapedRecord<Shape>> = [];
  const missing: string[] = [];
  const answered = new Set<string>();
  for (const { entry, ref } of plan.entries) {
    const found = 'placeId' in ref ? byPlaceId.get(ref.placeId) : byProfile.get(profilePageKey(ref.profile));
    if (found === undefined) {
      missing.push(entry);
      continue;
    }
    if (answered.has(found.placeId)) continue;
    answered.add(found.placeId);
    doctors.push(shapeRecord(found.doctor, found.extras, shape));
  }
  return { doctors, missing };
}
