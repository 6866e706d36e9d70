import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { RedisClient } from '@directory/config';
import {
  EXPORT_PAGE_SIZE,
  EXPORT_RECORDS_PER_UNIT,
  decodeExportResumeToken,
  exportChangesCursor,
  exportResumeToken,
  parseExportParams,
  type ApiKeyMode,
  type ExportParams,
  type SnapshotHorizon,
} from '@directory/domain';
import { openExport } from '@directory/event-store';
import { ProblemError } from '@directory/http-server';
import { chargeRequest, requireApiKey } from '@directory/keyed-access';
import { datasetOf, type Datasets } from '@directory/search';
import { writerFor } from '../../serializer.js';
import { doctorComponent } from '../doctors/doctors.schemas.js';
import { documentOnly } from '../query.js';
import { API_KEY_SECURITY, errorResponses, routeTags } from '../route-docs.js';
import { acceptsGzip } from './accept-encoding.js';
import { exportBody, type UnitCharge } from './export-body.js';
import { createExportLeases, type ExportLease, type ExportLeases } from './export-leases.js';
import {
  exportEndReason,
  exportStalled,
  retryAfterSeconds,
  type ExportLimits,
  type ProcessSlots,
} from './export-limits.js';
import {
  EXPORT_HEADERS,
  NDJSON,
  exportLineSchema,
  exportParamsSchema,
  exportQuerystringSchema,
} from './exports.schemas.js';

export type ExportsRouteOptions = {
  /** The export is read from the database of the key's mode's dataset. */
  datasets: Datasets;
  /** Signs the resume token and the changes cursor (config CURSOR_SECRET, as the changes feed's). */
  cursorSecret: string;
  /** Holds the accounts' export leases, shared by every API process (config REDIS_PREFIX: `redisPrefix`). */
  redis: RedisClient;
  redisPrefix: string;
  limits: ExportLimits;
  /** This process's export slots, shared with FHIR's Bulk Data downloads (the same store reads). */
  processSlots: ProcessSlots;
};

/** What a refused export is told to wait when this process is busy: an export takes tens of seconds. */
const EXPORT_BUSY_RETRY_AFTER_S = 30;

const EXPORTS_DESCRIPTION = `API 1.3. Every record served in one dataset, streamed as NDJSON from one consistent snapshot, ending with the changes-feed cursor that continues from it: a new mirror starts here instead of paging through the changes feed's snapshot.

**Body** (\`application/x-ndjson\`): one record per line, exactly as search returns it, in \`id\` order; then ONE trailer line \`{"export":{"country":"de","records":<lines sent>,"complete":true,"changesCursor":"<cursor>"}}\`. A body without a trailer was cut off: resume it.

**Following the feed**: every page is read at the snapshot's horizon in the store, so \`changesCursor\` (also sent before the body as the \`Changes-Cursor\` header) is exactly where \`GET /api/v1/changes\` (\`since\`, same country) delivers every change after it: apply the export, then the feed from that cursor, and the mirror equals what search serves. A record changed while the export ran comes from the feed with its newest state. The feed's entries from this cursor on carry \`changedAt\` (API 1.3).

**Resume**: the \`Export-Resume\` header resumes the same snapshot. After a dropped connection send \`resume=<Export-Resume>&after=<id of the last record received>\`: the export continues after that id and ends with the same \`changesCursor\`. Records changed since the snapshot are left out (the feed from \`changesCursor\` has them).

**Limits**: one response streams at most a set time (10 minutes by default), then ends with a trailer \`"complete":false\` and a \`reason\`: resume it at once with \`resume\` and \`after\`. An account runs a few exports at once per key mode (2 by default); one more is refused with 429 and \`Retry-After\`, and a server whose export slots are all in use answers 503 with \`Retry-After\`.

**Compression**: gzip when \`Accept-Encoding\` allows it (\`Content-Encoding: gzip\`).

**Charging**: one request unit per ${EXPORT_RECORDS_PER_UNIT} records: the request counts one as usual, covering its first ${EXPORT_RECORDS_PER_UNIT} records, and one more is charged before each further started ${EXPORT_RECORDS_PER_UNIT}. When the key's quota or the account's ceiling is used up part way, the export ends cleanly with a trailer \`"complete":false\`, a \`reason\` saying when to resume, and the same \`changesCursor\`: resume it then with \`resume\` and \`after\`.

A bad, altered or foreign \`resume\` token, one from another country, or one issued to a key of the other mode (live or test), is rejected with 400 (\`errors[].parameter\` = \`resume\`); so is an \`after\` that is not a record id, or sent without \`resume\`. Unknown or repeated parameters are rejected with 400.`;

export function exportRoutes(
  app: FastifyInstance,
  options: ExportsRouteOptions,
  done: (error?: Error) => void,
): void {
  const { datasets, cursorSecret, limits, processSlots } = options;
  const leases = createExportLeases({
    redis: options.redis,
    prefix: options.redisPrefix,
    leaseMs: limits.leaseMs,
  });
  // Written as search writes a record: the allowlist closed, whatever the stored document holds.
  const writeRecord = writerFor(doctorComponent);

  app.get(
    '/exports/:country',
    {
      validatorCompiler: documentOnly,
      // The body is NDJSON, not JSON: the 200 is documented with its media type and headers.
      config: { swaggerTransform: ndjsonTransform },
      schema: {
        tags: routeTags('exports'),
        operationId: 'exportDoctors',
        summary: 'Export every served record of one dataset (NDJSON snapshot with its changes cursor)',
        description: EXPORTS_DESCRIPTION,
        security: API_KEY_SECURITY,
        params: exportParamsSchema,
        querystring: exportQuerystringSchema,
        response: { 200: exportLineSchema, ...errorResponses([400, 401, 429, 503]) },
      },
    },
    async (request, reply) => {
      const params = parsedExportParams(request);
      const { country } = params;
      const { mode } = requireApiKey(request);
      const resumed = resumedExport(params, mode, cursorSecret);
      const { db } = datasetOf(datasets, request);
      const { lease, end: endExport } = await admitExport(request, reply, { processSlots, leases, limits });

      let opened: Awaited<ReturnType<typeof openExport>>;
      try {
        opened = await openExport(db, {
          country,
          ...(resumed === undefined ? {} : { resumed: resumed.horizon }),
        });
      } catch (error) {
        endExport();
        throw error;
      }
      const changesCursor = exportChangesCursor(opened.horizon, country, cursorSecret, mode);
      reply
        .header('changes-cursor', changesCursor)
        .header('export-resume', exportResumeToken(opened.horizon, country, mode, cursorSecret))
        .header('vary', 'Accept-Encoding')
        .type(NDJSON);
      // HEAD: the headers only. Fastify would otherwise read (and charge) the whole export to drop it.
      if (request.method === 'HEAD') {
        endExport();
        return reply.send();
      }

      const progress = { startedAt: Date.now(), leaseHeld: true };
      const body = exportBody({
        country,
        changesCursor,
        pages: opened.pages(resumed?.after ?? '', EXPORT_PAGE_SIZE),
        writeRecord,
        chargeUnit: () => chargeUnit(request),
        endReason: () => exportEndReason(progress, limits, Date.now()),
      });
      // One chunk (a page) at a time: a slow client holds back the reading of the store.
      const lines = Readable.from(body, { objectMode: true, highWaterMark: 1 });
      return sendExportStream(request, reply, lines, {
        lease,
        limits,
        progress,
        end: endExport,
        label: 'export',
      });
    },
  );
  done();
}

/** An export admitted: the account's lease, and what ends it (frees both slots; safe to call again). */
export type AdmittedExport = { lease: ExportLease; end: () => void };

/**
 * Admits an export (or a FHIR Bulk Data download, which reads the store alike): this process's slot
 * first (no round trip), then one of the account's, in Redis. Refused with a 503 (this process is busy)
 * or a 429 (the account runs its most), each with `Retry-After`, holding nothing.
 */
export async function admitExport(
  request: FastifyRequest,
  reply: FastifyReply,
  admission: { processSlots: ProcessSlots; leases: ExportLeases; limits: ExportLimits },
): Promise<AdmittedExport> {
  const { processSlots, leases, limits } = admission;
  const key = requireApiKey(request);
  const { mode } = key;
  if (!processSlots.take(mode)) {
    reply.header('retry-after', EXPORT_BUSY_RETRY_AFTER_S);
    throw new ProblemError(
      'unavailable',
      `Every export slot of this server for ${mode} keys is in use (${limits.maxConcurrent[mode]}); retry after ${EXPORT_BUSY_RETRY_AFTER_S} seconds.`,
    );
  }
  let attempt: Awaited<ReturnType<ExportLeases['acquire']>>;
  try {
    attempt = await leases.acquire(key, limits.maxPerAccount);
  } catch (error) {
    processSlots.free(mode);
    throw error;
  }
  if (!attempt.ok) {
    processSlots.free(mode);
    const wait = retryAfterSeconds(attempt.retryAfterMs);
    reply.header('retry-after', wait);
    throw new ProblemError(
      'rateLimited',
      `This account already runs ${limits.maxPerAccount} export${limits.maxPerAccount === 1 ? '' : 's'} with ${mode} keys, the most it may run at once; retry when one ends (at the latest after ${wait} seconds).`,
    );
  }
  const { lease } = attempt;
  let ended = false;
  return {
    lease,
    end: () => {
      if (ended) return;
      ended = true;
      processSlots.free(mode);
      lease
        .release()
        .catch((error: unknown) => request.log.warn({ err: error }, 'export lease release failed'));
    },
  };
}

/**
 * Sends an export's stream (the API's or a FHIR file), gzipped when the client accepts it, watched as
 * `watchExport` says: a lost lease marks `progress` (the body ends at its next page), a stalled client
 * has its connection cut. `end` frees the slots when the stream closes, however it ends (also when the
 * body never started: an async generator's finally only runs once begun).
 */
export function sendExportStream(
  request: FastifyRequest,
  reply: FastifyReply,
  lines: Readable,
  options: {
    lease: ExportLease | undefined;
    limits: ExportLimits;
    progress: { leaseHeld: boolean };
    end: () => void;
    label: string;
  },
): FastifyReply {
  const watch = watchExport(request, options.lease, options.limits, {
    leaseLost: () => (options.progress.leaseHeld = false),
    // The connection itself: a stream destroyed alone would leave the response (and the client) open.
    stalled: () => {
      reply.raw.destroy();
      lines.destroy();
    },
  });
  lines.once('close', () => {
    clearInterval(watch);
    options.end();
  });
  lines.on('error', (error) => request.log.warn({ err: error }, `${options.label} stream failed`));
  if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(lines);
  // No compression plugin is registered: the export compresses its own stream. pipeline destroys the
  // source too when the client goes (fastify destroys what it sends), ending the export.
  const gzip = createGzip();
  pipeline(lines, gzip, () => undefined);
  return reply.header('content-encoding', 'gzip').send(gzip);
}

/**
 * Every third of a lease: renews the export's lease (a lease found expired, or not renewed, ends the
 * export at its next page), and cuts a client that took no byte for the stall limit. The database is
 * not what a stalled client holds (no transaction waits for it): its slots are.
 */
export function watchExport(
  request: FastifyRequest,
  lease: ExportLease | undefined,
  limits: ExportLimits,
  on: { leaseLost: () => void; stalled: () => void },
): NodeJS.Timeout {
  const socket = request.raw.socket;
  let bytesWritten = socket.bytesWritten;
  let lastProgressAt = Date.now();
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (socket.bytesWritten !== bytesWritten) {
        bytesWritten = socket.bytesWritten;
        lastProgressAt = now;
      }
      if (exportStalled(lastProgressAt, limits, now)) {
        on.stalled();
        return;
      }
      lease?.renew().then(
        (held) => {
          if (!held) on.leaseLost();
        },
        (error: unknown) => {
          request.log.warn({ err: error }, 'export lease renewal failed');
          on.leaseLost();
        },
      );
    },
    Math.max(1, Math.floor(limits.leaseMs / 3)),
  );
  timer.unref();
  return timer;
}

function parsedExportParams(request: FastifyRequest): ExportParams {
  const parsed = parseExportParams(
    request.params as Record<string, unknown>,
    request.query as Record<string, unknown>,
  );
  if (parsed.ok) return parsed.value;
  throw new ProblemError('invalidParameter', 'One or more parameters are invalid; see errors.', parsed.error);
}

/** The snapshot and position a resumed export continues from, or undefined for a new export. */
function resumedExport(
  params: ExportParams,
  mode: ApiKeyMode,
  secret: string,
): { horizon: SnapshotHorizon; after: string } | undefined {
  if (params.resume === undefined) return undefined;
  const decoded = decodeExportResumeToken(params.resume, params.country, mode, secret);
  if (!decoded.ok) {
    throw new ProblemError('invalidParameter', 'The resume token cannot be used with this request.', [
      { parameter: 'resume', reason: decoded.error },
    ]);
  }
  return { horizon: decoded.value.horizon, after: params.after ?? decoded.value.after };
}

async function chargeUnit(request: FastifyRequest): Promise<UnitCharge> {
  const charge = await chargeRequest(request, 1);
  if (charge.withinQuota) return { ok: true };
  const whose =
    charge.which === 'key' ? 'the request quota of this API key' : "this account's request ceiling";
  return {
    ok: false,
    reason: `${whose} is exhausted; resume after ${charge.retryAfterSeconds} seconds with resume (the Export-Resume header) and after (the last id received)`,
  };
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The zod transform, then the 200 as an NDJSON body (its schema: one line) with the export's headers. */
function ndjsonTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const transformed = jsonSchemaTransform(input);
  const responses = transformed.schema.response as Record<string, unknown> | undefined;
  const line = responses?.[200];
  if (responses !== undefined && typeof line === 'object' && line !== null) {
    // The transform's placeholder id of the top-level schema is for @fastify/swagger's own media
    // handling, which a response with its own content skips: it must not reach the document.
    const { $id: _placeholder, ...schema } = line as Record<string, unknown>;
    responses[200] = { description: 'Success', headers: EXPORT_HEADERS, content: { [NDJSON]: { schema } } };
  }
  return transformed;
}
