import { z } from 'zod';
import type { RedisClient } from '@directory/config';
import { COUNTRY_CODES, type ApiKeyMode } from '@directory/domain';
import { DIRECTORY_RESOURCE_TYPES } from '@directory/fhir';
import { createExportLeases, exportLeasesRedisKey } from '../exports/export-leases.js';

/**
 * FHIR Bulk Data export jobs (docs/fhir.md "Bulk export"), kept in Redis so that every API process
 * answers a job's status and files. A job is small: its owner, what was asked, the snapshot's horizon
 * and its counts; the files are read from the store when downloaded. It expires on its own after
 * BULK_EXPORT_JOB_TTL_MS, or when its owner DELETEs it.
 *
 * An account holds at most as many jobs at once (per key mode) as it may run exports at once
 * (EXPORTS_MAX_PER_ACCOUNT), counted with the exports' own lease script in a set of its own: one per
 * job, lasting as long as the job, so a job never outlives its slot nor a slot its job.
 */

/** How long a job (its status and files) stays after its kick-off. */
export const BULK_EXPORT_JOB_TTL_MS = 60 * 60 * 1000;

const jobSchema = z.object({
  accountId: z.string(),
  mode: z.enum(['live', 'test']),
  country: z.enum(COUNTRY_CODES),
  types: z.array(z.enum(DIRECTORY_RESOURCE_TYPES)),
  since: z.string().optional(),
  horizon: z.object({ upTo: z.string(), running: z.array(z.string()) }),
  transactionTime: z.string(),
  request: z.string(),
  counts: z.partialRecord(z.enum(DIRECTORY_RESOURCE_TYPES), z.number()),
  expiresAt: z.string(),
});

export type BulkExportJob = z.infer<typeof jobSchema>;

export type JobOwner = { accountId: string; mode: ApiKeyMode };

export type BulkExportJobs = {
  /** Takes one of the owner's `max` job slots and stores the job, or says when the first one expires. */
  create: (
    owner: JobOwner,
    max: number,
    job: (expiresAt: Date) => Promise<BulkExportJob>,
  ) => Promise<{ ok: true; id: string; job: BulkExportJob } | { ok: false; retryAfterMs: number }>;
  /** The job of `owner` with this id; undefined when there is none, it expired, or it is another's. */
  get: (owner: JobOwner, id: string) => Promise<BulkExportJob | undefined>;
  /** Ends the job and frees its slot. */
  remove: (owner: JobOwner, id: string) => Promise<void>;
};

// A job id is a random UUID (the lease's): anything else names no job.
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createBulkExportJobs(options: { redis: RedisClient; redisPrefix: string }): BulkExportJobs {
  const { redis } = options;
  const prefix = `${options.redisPrefix}:fhir-bulk`;
  const slots = createExportLeases({ redis, prefix, leaseMs: BULK_EXPORT_JOB_TTL_MS });
  const jobKey = (id: string) => `${prefix}:job:${id}`;
  const owns = (owner: JobOwner, job: BulkExportJob) =>
    job.accountId === owner.accountId && job.mode === owner.mode;

  return {
    create: async (owner, max, build) => {
      const attempt = await slots.acquire(owner, max);
      if (!attempt.ok) return attempt;
      const { id } = attempt.lease;
      try {
        const job = await build(new Date(Date.now() + BULK_EXPORT_JOB_TTL_MS));
        await redis.set(jobKey(id), JSON.stringify(job), 'PX', BULK_EXPORT_JOB_TTL_MS);
        return { ok: true, id, job };
      } catch (error) {
        await attempt.lease.release();
        throw error;
      }
    },
    get: async (owner, id) => {
      if (!JOB_ID.test(id)) return undefined;
      const text = await redis.get(jobKey(id));
      if (text === null) return undefined;
      const job = jobSchema.parse(JSON.parse(text));
      return owns(owner, job) ? job : undefined;
    },
    remove: async (owner, id) => {
      await redis.del(jobKey(id));
      await redis.zrem(exportLeasesRedisKey(prefix, owner), id);
    },
  };
}
