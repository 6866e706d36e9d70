import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RedisClient } from '@directory/config';
import { EXPORT_PAGE_SIZE, exportUnits, type SnapshotHorizon } from '@directory/domain';
import { countSnapshotRecords, openRecordSnapshot, snapshotRecordPages } from '@directory/event-store';
import {
  DIRECTORY_RESOURCE_TYPES,
  FHIR_ID_MAX_LENGTH,
  NDJSON_FORMAT,
  bulkExportManifest,
  ndjsonLinesOf,
  parseBulkExportKickOff,
  type DirectoryResourceType,
} from '@directory/fhir';
import { ProblemError } from '@directory/http-server';
import { chargeRequest, requireApiKey } from '@directory/keyed-access';
import { datasetOf, type Datasets } from '@directory/search';
import { createExportLeases } from '../exports/export-leases.js';
import {
  exportEndReason,
  retryAfterSeconds,
  type ExportLimits,
  type ProcessSlots,
} from '../exports/export-limits.js';
import { admitExport, sendExportStream } from '../exports/exports.routes.js';
import { createBulkExportJobs, type BulkExportJob, type JobOwner } from './bulk-export-jobs.js';
import { baseUrlOf, canonicalOriginOf, invalid, parametersOf, sendFhir, strictOf } from './fhir.routes.js';

/**
 * FHIR Bulk Data `$export` (docs/fhir.md "Bulk export"), system level, of one dataset: built on the
 * API's export (`GET /api/v1/exports/{country}`), one snapshot of the store read page by page at its
 * horizon. The kick-off fixes the snapshot and counts it, so the job is complete when it answers 202;
 * the status URL answers the manifest, and each file streams the snapshot's records as one type's
 * resources when downloaded. Downloads take the exports' slots and leases and are charged as exports
 * are (one request unit per 1,000 records), before their first byte.
 */

export type BulkExportRouteOptions = {
  datasets: Datasets;
  siteOrigin: string;
  redis: RedisClient;
  redisPrefix: string;
  /** The exports' limits (config EXPORTS_*): the same per account and per process. */
  limits: ExportLimits;
  processSlots: ProcessSlots;
};

const STATUS_PATH = '/$export-status';
const FILE_PATH = '/$export-file';
const FILE_SUFFIX = '.ndjson';
const NDJSON_MEDIA_TYPES = [NDJSON_FORMAT, 'application/ndjson', 'application/x-ndjson'];

const NO_JOB = 'There is no such export job (it ended, expired, or was started with another account).';

function informational(text: string) {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'information', code: 'informational', diagnostics: text }],
  };
}

export function bulkExportRoutes(
  app: FastifyInstance,
  options: BulkExportRouteOptions,
  done: (error?: Error) => void,
): void {
  const { datasets, limits, processSlots } = options;
  const jobs = createBulkExportJobs(options);
  // The exports' own leases (the same Redis set): a download is an export of the account.
  const leases = createExportLeases({
    redis: options.redis,
    prefix: options.redisPrefix,
    leaseMs: limits.leaseMs,
  });
  const ownerOf = (request: FastifyRequest): JobOwner => {
    const { accountId, mode } = requireApiKey(request);
    return { accountId, mode };
  };
  const statusUrl = (request: FastifyRequest, id: string) => `${baseUrlOf(request)}${STATUS_PATH}/${id}`;

  async function jobOf(request: FastifyRequest<{ Params: { id: string } }>): Promise<BulkExportJob> {
    const job = await jobs.get(ownerOf(request), request.params.id);
    if (job === undefined) throw new ProblemError('notFound', NO_JOB);
    return job;
  }

  app.get('/$export', { schema: { hide: true } }, async (request, reply) => {
    const owner = ownerOf(request);
    const parsed = parseBulkExportKickOff(parametersOf(request), {
      prefer: String(request.headers.prefer ?? ''),
      strict: strictOf(request),
    });
    if (!parsed.ok) throw invalid(parsed.error);
    const { country, types, since } = parsed.value;
    const { db } = datasetOf(datasets, request);
    const created = await jobs.create(owner, limits.maxPerAccount, async (expiresAt) => {
      const snapshot = await openRecordSnapshot(db, country);
      const records = await countSnapshotRecords(db, scopeOf(country, snapshot.horizon, since));
      return {
        ...owner,
        country,
        types,
        ...(since === undefined ? {} : { since: since.toISOString() }),
        horizon: snapshot.horizon,
        transactionTime: snapshot.transactionTime.toISOString(),
        request: `${request.protocol}://${request.host}${request.url}`,
        // Every served record is one resource of each type.
        counts: Object.fromEntries(types.map((type) => [type, records])),
        expiresAt: expiresAt.toISOString(),
      };
    });
    if (!created.ok) {
      const wait = retryAfterSeconds(created.retryAfterMs);
      reply.header('retry-after', wait);
      throw new ProblemError(
        'rateLimited',
        `This account already holds ${limits.maxPerAccount} export job${limits.maxPerAccount === 1 ? '' : 's'} with ${owner.mode} keys, the most it may hold; DELETE one at its status URL, or retry when one expires (after ${wait} seconds).`,
      );
    }
    reply.code(202).header('content-location', statusUrl(request, created.id));
    return sendFhir(
      reply,
      informational(`The export job is ready: its manifest is at ${statusUrl(request, created.id)}.`),
    );
  });

  app.get<{ Params: { id: string } }>(
    `${STATUS_PATH}/:id`,
    { schema: { hide: true } },
    async (request, reply) => {
      const job = await jobOf(request);
      const manifest = bulkExportManifest(
        job,
        (type) => `${baseUrlOf(request)}${FILE_PATH}/${request.params.id}/${type}${FILE_SUFFIX}`,
      );
      // The job was complete when its kick-off answered: no 202 "in progress" is ever due.
      return reply
        .header('expires', new Date(job.expiresAt).toUTCString())
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(manifest));
    },
  );

  app.delete<{ Params: { id: string } }>(
    `${STATUS_PATH}/:id`,
    { schema: { hide: true } },
    async (request, reply) => {
      await jobOf(request);
      await jobs.remove(ownerOf(request), request.params.id);
      return sendFhir(reply.code(202), informational('The export job and its files are deleted.'));
    },
  );

  app.get<{ Params: { id: string; file: string } }>(
    `${FILE_PATH}/:id/:file`,
    { schema: { hide: true }, config: { fhirMediaTypes: NDJSON_MEDIA_TYPES } },
    async (request, reply) => {
      const job = await jobOf(request);
      const type = fileTypeOf(request.params.file);
      const count = type === undefined ? 0 : (job.counts[type] ?? 0);
      if (type === undefined || count === 0)
        throw new ProblemError('notFound', 'This export job has no such file; see its manifest.');
      reply.type(NDJSON_FORMAT).header('vary', 'Accept-Encoding');
      if (request.method === 'HEAD') return reply.send();
      return sendFile(request, reply, job, type, count);
    },
  );

  async function sendFile(
    request: FastifyRequest,
    reply: FastifyReply,
    job: BulkExportJob,
    type: DirectoryResourceType,
    count: number,
  ) {
    const { lease, end } = await admitExport(request, reply, { processSlots, leases, limits });
    try {
      await chargeFile(request, reply, count);
    } catch (error) {
      end();
      throw error;
    }
    const { db } = datasetOf(datasets, request);
    const mapping = { siteOrigin: canonicalOriginOf(options.siteOrigin, request) };
    const scope = scopeOf(
      job.country,
      job.horizon,
      job.since === undefined ? undefined : new Date(job.since),
    );
    const progress = { startedAt: Date.now(), leaseHeld: true };
    async function* body(): AsyncGenerator<string, void, undefined> {
      for await (const page of snapshotRecordPages(db, scope, EXPORT_PAGE_SIZE)) {
        yield ndjsonLinesOf(type, page, mapping);
        // Past the exports' longest duration, or without its slot, the file is cut: the client sees
        // a failed download (no end of the chunked body) and downloads it again from the same snapshot.
        if (exportEndReason(progress, limits, Date.now()) !== undefined) {
          cut();
          return;
        }
      }
    }
    const lines = Readable.from(body(), { objectMode: true, highWaterMark: 1 });
    const cut = () => {
      reply.raw.destroy();
      lines.destroy();
    };
    return sendExportStream(request, reply, lines, {
      lease,
      limits,
      progress,
      end,
      label: 'bulk export file',
    });
  }
  done();
}

/**
 * Charges a file as an export of `count` records, all before its first byte (a file cannot end with a
 * trailer saying where it stopped, as an export's body does); a 429 with `Retry-After` when the key's
 * quota or the account's ceiling has fewer units left, charging none.
 */
async function chargeFile(request: FastifyRequest, reply: FastifyReply, count: number): Promise<void> {
  const units = exportUnits(count) - 1;
  if (units === 0) return;
  const charge = await chargeRequest(request, units);
  if (charge.withinQuota) return;
  reply.header('retry-after', charge.retryAfterSeconds);
  const whose =
    charge.which === 'key' ? 'the request quota of this API key' : "this account's request ceiling";
  throw new ProblemError(
    'rateLimited',
    `This file costs ${units + 1} request units (one per 1,000 resources) and ${whose} has fewer left; download it after ${charge.retryAfterSeconds} seconds.`,
  );
}

function scopeOf(country: BulkExportJob['country'], horizon: SnapshotHorizon, since: Date | undefined) {
  return { country, horizon, maxIdLength: FHIR_ID_MAX_LENGTH, ...(since === undefined ? {} : { since }) };
}

/** `{type}.ndjson` of a file URL: the type, or undefined. */
function fileTypeOf(file: string): DirectoryResourceType | undefined {
  if (!file.endsWith(FILE_SUFFIX)) return undefined;
  const name = file.slice(0, -FILE_SUFFIX.length);
  return DIRECTORY_RESOURCE_TYPES.find((type) => type === name);
}
