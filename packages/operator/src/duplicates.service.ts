import type { Database } from '@directory/database';
import type { Doctor } from '@directory/domain';
import {
  findCandidatePairs,
  normalizeRecord,
  planMerges,
  type CandidatePair,
  type MatchRecord,
  type PlannedMerge,
  type RecordQuality,
} from '@directory/duplicates';
import { ingestBatch, type IngestItem, type ProjectorDependencies } from '@directory/ingest';

// Rows read per query: each page is reduced to its match record before the next is read.
const PAGE_SIZE = 1_000;

export type DuplicateScan = {
  /** Served records of the dataset read. */
  records: number;
  pairs: CandidatePair[];
  /** The merges that apply the pairs (survivor rule: @directory/duplicates, survivor.ts). */
  merges: PlannedMerge[];
  comparisons: number;
};

/**
 * Reads the served records of `dataset` page by page (keyset on the place id: only one page of
 * documents is in memory at a time; what is kept of each is its match record and quality) and
 * proposes the pairs scoring at least `minScore`.
 */
export async function scanDuplicates(
  db: Database,
  options: { dataset: string; minScore: number; onProgress?: (recordsRead: number) => void },
): Promise<DuplicateScan> {
  const records: MatchRecord[] = [];
  const quality = new Map<string, RecordQuality>();
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('places')
      .select(['place_id', 'document'])
      .where('served', '=', true)
      .where('feed_country', '=', options.dataset)
      .where('place_id', '>', after)
      .orderBy('place_id')
      .limit(PAGE_SIZE)
      .execute();
    for (const row of rows) {
      const document = row.document as { doctor?: Doctor; verified?: boolean } | null;
      const doctor = document?.doctor;
      if (doctor === undefined) continue;
      records.push(normalizeRecord(matchInputOf(row.place_id, doctor)));
      quality.set(row.place_id, qualityOf(row.place_id, doctor));
    }
    options.onProgress?.(records.length);
    if (rows.length < PAGE_SIZE) break;
    after = (rows[rows.length - 1] as { place_id: string }).place_id;
  }
  const { pairs, comparisons } = findCandidatePairs(records, { minScore: options.minScore });
  return { records: records.length, pairs, merges: planMerges(pairs, quality), comparisons };
}

/** What the matcher reads of a served record. */
export function matchInputOf(placeId: string, doctor: Doctor) {
  return {
    id: placeId,
    name: doctor.name,
    country: doctor.address.country,
    city: doctor.address.city,
    street: doctor.address.street,
    postalCode: doctor.address.postalCode,
    location: doctor.location,
    phones: [
      ...(doctor.phone === null ? [] : [doctor.phone]),
      ...doctor.additionalPhones.map((p) => p.number),
    ],
    website: doctor.website,
  };
}

/** The survivor rule's facts about a served record: verified, how many fields it publishes, its reviews. */
export function qualityOf(placeId: string, doctor: Doctor): RecordQuality {
  const present = [
    doctor.name,
    doctor.legalName,
    doctor.address.street,
    doctor.address.postalCode,
    doctor.location,
    doctor.phone,
    doctor.email,
    doctor.website,
    doctor.primaryType,
    doctor.rating,
    doctor.workingHours,
  ].filter((value) => value !== null).length;
  return {
    id: placeId,
    verified: doctor.verified,
    filledFields:
      present + (doctor.specialties.length > 0 ? 1 : 0) + (doctor.additionalPhones.length > 0 ? 1 : 0),
    reviewCount: doctor.reviewCount,
  };
}

/**
 * Writes one `place.merged` per planned merge through the ingest pipeline (validated, stored, folded
 * and projected like any producer's event). Each event id names the merged place, its survivor and the
 * time, so a merge applied again after an unmerge is a new event, not a duplicate.
 */
export async function applyMerges(
  deps: ProjectorDependencies,
  merges: ReadonlyArray<PlannedMerge>,
  now: Date = new Date(),
): Promise<{ stored: number; deadLettered: number }> {
  const occurredAt = now.toISOString();
  const stamp = occurredAt.replace(/\D/g, '');
  const items: IngestItem[] = merges.map((merge) => ({
    source: 'directory duplicates --apply',
    raw: {
      eventId: `merge:${merge.placeId}:${merge.into}:${stamp}`.slice(0, 200),
      placeId: merge.placeId,
      type: 'place.merged',
      occurredAt,
      schemaVersion: 1,
      payload: { into: merge.into },
    },
  }));
  let stored = 0;
  let deadLettered = 0;
  for (let start = 0; start < items.length; start += 500) {
    const result = await ingestBatch(deps, items.slice(start, start + 500));
    stored += result.stored;
    deadLettered += result.deadLettered;
  }
  return { stored, deadLettered };
}
