import type { Client, estypes } from '@elastic/elasticsearch';
import { utf8Lines, type SearchDocument, type Tombstone } from '@directory/domain';

/**
 * One place's index copy at a stream version. Tombstones keep their version, so a stale write can't
 * resurrect. `sourceJson`, when given, is `source` already serialized (the worker stores the same text):
 * sent as it is.
 */
export type Projection = {
  placeId: string;
  version: number;
  source: SearchDocument | Tombstone;
  sourceJson?: string;
};

/** A document Elasticsearch refused for its content: retrying it unchanged can never succeed. */
export type RefusedProjection = {
  placeId: string;
  version: number;
  status: number;
  /** Elasticsearch's error type, e.g. `document_parsing_exception`: what metrics count by. */
  errorType: string;
  reason: string;
};

export type ProjectionResult = { written: number; stale: number };
export type WriteProjectionsResult = ProjectionResult & { refused: RefusedProjection[] };

type ItemFailure = { placeId: string; status: number; reason: string };

export class ProjectionError extends Error {
  readonly failures: ReadonlyArray<ItemFailure>;
  constructor(failures: ReadonlyArray<ItemFailure>) {
    const sample = failures
      .slice(0, 3)
      .map((failure) => `${failure.placeId}: ${failure.status} ${failure.reason}`)
      .join('; ');
    super(`${failures.length} projection(s) not acknowledged by Elasticsearch (${sample})`);
    this.name = 'ProjectionError';
    this.failures = failures;
  }
}

export type BulkItemOutcome = 'stale' | 'refused' | 'retry';

/**
 * What a failed bulk item means. 409: the index already holds this version or a newer one (success).
 * 400 and 413 (mapping, immense term, illegal argument, document too large): the document itself is
 * refused, so it is set aside and the rest of the batch proceeds. Everything else (429 throttling, 5xx,
 * unavailable shards, a missing index, a blocked cluster) is the infrastructure's: retried until it heals.
 */
export function classifyBulkItemFailure(
  status: number,
  errorType: string | undefined,
  reason = '',
): BulkItemOutcome {
  if (status === 409) return 'stale';
  // Some 400s are about the index, not the document (missing, closed, an alias with no write index):
  // setting the document aside would hide an outage; retried, they succeed once the index is right.
  const aboutTheIndex =
    errorType === 'index_not_found_exception' ||
    errorType === 'index_closed_exception' ||
    /no write index is defined/.test(reason);
  if ((status === 400 || status === 413) && !aboutTheIndex) return 'refused';
  return 'retry';
}

const MAX_REASON_LENGTH = 1_000;

/**
 * Writes projections with the bulk helper and `version_type: external`, checking every item (see
 * `classifyBulkItemFailure`): stale writes are success, refused documents are returned for the caller
 * to record, and any other item failure fails the whole call, so the caller's job is retried and nothing
 * is marked projected that is not in the index.
 */
export async function writeProjections(
  client: Client,
  index: string,
  projections: ReadonlyArray<Projection>,
): Promise<WriteProjectionsResult> {
  if (projections.length === 0) return { written: 0, stale: 0, refused: [] };
  let stale = 0;
  const refused: RefusedProjection[] = [];
  const failures: ItemFailure[] = [];
  const stats = await client.helpers.bulk<Projection>({
    datasource: [...projections],
    onDocument: (projection) => [
      {
        index: {
          _index: index,
          _id: projection.placeId,
          version: projection.version,
          version_type: 'external',
        },
      },
      projection.sourceJson ?? projection.source,
    ],
    // `dropped.document` is the document sent (the second bulk line), not the datasource item, and
    // `dropped.operation` the action line as sent: the place id and version come from there.
    onDrop: (dropped) => {
      const action = (dropped.operation as { index?: { _id?: string; version?: number } }).index;
      const placeId = action?._id ?? 'unknown';
      const errorType = dropped.error?.type;
      const outcome = classifyBulkItemFailure(dropped.status, errorType, String(dropped.error?.reason ?? ''));
      if (outcome === 'stale') stale += 1;
      else if (outcome === 'refused')
        refused.push({
          placeId,
          version: action?.version ?? 0,
          status: dropped.status,
          errorType: errorType ?? 'unknown',
          reason: String(dropped.error?.reason ?? errorType ?? 'unknown').slice(0, MAX_REASON_LENGTH),
        });
      else
        failures.push({
          placeId,
          status: dropped.status,
          reason: errorType ?? 'unknown',
        });
    },
    flushBytes: 5_000_000,
    concurrency: 1,
    retries: 3,
    wait: 500,
  });
  if (failures.length > 0) throw new ProjectionError(failures);
  return { written: stats.successful, stale, refused };
}

/** A projection already serialized (as stored by the worker): sent to the index as it is. */
export type SerializedProjection = { placeId: string; version: number; documentJson: string };

const MAX_ATTEMPTS = 4;

/**
 * The copy path of a reindex: builds the NDJSON bulk body from stored document text (no parse, no
 * re-serialization) and checks every item exactly like `writeProjections`: 409 is a stale write and
 * counts as success; 429 items are retried with backoff; anything else fails the call.
 */
export async function writeSerializedProjections(
  client: Client,
  index: string,
  projections: ReadonlyArray<SerializedProjection>,
): Promise<ProjectionResult> {
  let pending = [...projections];
  let written = 0;
  let stale = 0;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const lines: string[] = [];
    for (const projection of pending) {
      lines.push(
        `{"index":{"_index":${JSON.stringify(index)},"_id":${JSON.stringify(projection.placeId)},"version":${projection.version},"version_type":"external"}}`,
        projection.documentJson,
      );
    }
    // The typed bulk() only takes objects; the transport sends a prepared NDJSON body (here its UTF-8
    // bytes, see `utf8Lines`) untouched.
    const response = await client.transport.request<estypes.BulkResponse>({
      method: 'POST',
      path: '/_bulk',
      bulkBody: utf8Lines(lines, { finalNewline: true }),
    });
    const retry: SerializedProjection[] = [];
    const failures: ItemFailure[] = [];
    response.items.forEach((item, position) => {
      const result = item.index;
      const projection = pending[position];
      if (!result || !projection) return;
      if (result.status < 300) written += 1;
      else if (result.status === 409) stale += 1;
      else if (result.status === 429 && attempt < MAX_ATTEMPTS) retry.push(projection);
      else
        failures.push({
          placeId: projection.placeId,
          status: result.status,
          reason: result.error?.type ?? 'unknown',
        });
    });
    if (failures.length > 0) throw new ProjectionError(failures);
    if (retry.length > 0) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    pending = retry;
  }
  return { written, stale };
}
