import type { Client, estypes } from '@elastic/elasticsearch';
import { utf8Lines, type SearchDocument, type Tombstone } from '@directory/domain';
import { highWaterBulkLines } from './store-marks.js';

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
/** A stale write (409) refused because the index holds a higher version than the one sent. */
export type NewerInIndex = { placeId: string; version: number; indexVersion: number };
export type WriteProjectionsResult = ProjectionResult & {
  refused: RefusedProjection[];
  /**
   * Stale writes where the index holds a higher version than the one sent: normally a concurrent
   * worker's newer fold, but a version the store does not have means the store went back in time
   * (`placesAheadOfStore`). Equal versions (the same write twice) are not listed.
   */
  newerInIndex: NewerInIndex[];
};

export type ItemFailure = { placeId: string; status: number; reason: string };

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
 * Writes projections with `version_type: external`, checking every item (see `bulkWrite`): stale
 * writes are success, refused documents are returned for the caller to record, and any other item
 * failure fails the whole call, so the caller's job is retried and nothing is marked projected that is
 * not in the index. A projection's `sourceJson` (the text the worker stores) is sent as it is.
 */
export async function writeProjections(
  client: Client,
  index: string,
  projections: ReadonlyArray<Projection>,
  options: { highWaterPosition?: number } = {},
): Promise<WriteProjectionsResult> {
  return bulkWrite(
    client,
    index,
    projections.map((projection) => ({
      placeId: projection.placeId,
      version: projection.version,
      documentJson: projection.sourceJson ?? JSON.stringify(projection.source),
    })),
    // In the same request, after the documents: the highest store position these projections reflect
    // (`store-marks.ts`). Its item is not checked: a 409 means a higher mark is already there, and a
    // lost mark only delays noticing a store that went back in time.
    options.highWaterPosition ? highWaterBulkLines(index, options.highWaterPosition) : [],
  );
}

/** A projection already serialized (as stored by the worker): sent to the index as it is. */
export type SerializedProjection = { placeId: string; version: number; documentJson: string };

/**
 * The copy and replay path of a reindex: stored document text, written like `writeProjections`,
 * except that a refused document fails the call.
 */
export async function writeSerializedProjections(
  client: Client,
  index: string,
  projections: ReadonlyArray<SerializedProjection>,
): Promise<ProjectionResult> {
  const { written, stale, refused } = await bulkWrite(client, index, projections, []);
  if (refused.length > 0)
    throw new ProjectionError(
      refused.map(({ placeId, status, errorType }) => ({ placeId, status, reason: errorType })),
    );
  return { written, stale };
}

/** Bulk attempts per call for items Elasticsearch throttled (429): then the call fails. */
const MAX_ATTEMPTS = 4;

/**
 * One bulk request of index actions (throttled items sent again, with backoff, up to `MAX_ATTEMPTS`),
 * each item sorted by `sortBulkItems`. The body is the documents' stored JSON text as UTF-8 bytes
 * (`utf8Lines`): never parsed, never re-serialized, never joined into one string.
 */
async function bulkWrite(
  client: Client,
  index: string,
  projections: ReadonlyArray<SerializedProjection>,
  trailingLines: ReadonlyArray<string>,
): Promise<WriteProjectionsResult> {
  const result: WriteProjectionsResult = { written: 0, stale: 0, refused: [], newerInIndex: [] };
  let pending = projections;
  for (let attempt = 1; pending.length > 0; attempt++) {
    // The typed bulk() only takes objects; the transport sends a prepared NDJSON body untouched.
    const response = await client.transport.request<estypes.BulkResponse>({
      method: 'POST',
      path: '/_bulk',
      bulkBody: bulkBodyOf(index, pending, attempt === 1 ? trailingLines : []),
    });
    // Items past the projections sent (the trailing lines' own) are not the projections' outcome.
    const sorted = sortBulkItems(response.items.slice(0, pending.length), pending, {
      mayRetry: attempt < MAX_ATTEMPTS,
    });
    result.written += sorted.written;
    result.stale += sorted.stale;
    result.refused.push(...sorted.refused);
    result.newerInIndex.push(...sorted.newerInIndex);
    if (sorted.failures.length > 0) throw new ProjectionError(sorted.failures);
    if (sorted.retry.length > 0) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    pending = sorted.retry;
  }
  return result;
}

/** A bulk response item, as far as sorting it needs. */
export type BulkResponseItem = {
  index?: { status: number; error?: { type?: string; reason?: string | null } | undefined };
};

export type SortedBulkItems = {
  written: number;
  stale: number;
  newerInIndex: NewerInIndex[];
  refused: RefusedProjection[];
  /** Throttled (429) while another attempt is allowed: to be sent again. */
  retry: SerializedProjection[];
  /** Anything else (or throttled on the last attempt): the call fails with these. */
  failures: ItemFailure[];
};

/**
 * What each item of a bulk response means for the projection sent at its position (see
 * `classifyBulkItemFailure`). Only throttling is retried within a call; any other failure of the
 * infrastructure fails the call, and so the caller's job, which is retried as a whole.
 */
export function sortBulkItems(
  items: ReadonlyArray<BulkResponseItem>,
  sent: ReadonlyArray<SerializedProjection>,
  options: { mayRetry: boolean },
): SortedBulkItems {
  const sorted: SortedBulkItems = {
    written: 0,
    stale: 0,
    newerInIndex: [],
    refused: [],
    retry: [],
    failures: [],
  };
  items.forEach((item, position) => {
    const outcome = item.index;
    const projection = sent[position];
    if (!outcome || !projection) return;
    if (outcome.status < 300) {
      sorted.written += 1;
      return;
    }
    const errorType = outcome.error?.type;
    const reason = outcome.error?.reason ?? '';
    const kind = classifyBulkItemFailure(outcome.status, errorType, reason);
    if (kind === 'stale') {
      sorted.stale += 1;
      const indexVersion = currentVersionOf(reason);
      if (indexVersion !== undefined && indexVersion > projection.version)
        sorted.newerInIndex.push({ placeId: projection.placeId, version: projection.version, indexVersion });
    } else if (kind === 'refused')
      sorted.refused.push({
        placeId: projection.placeId,
        version: projection.version,
        status: outcome.status,
        errorType: errorType ?? 'unknown',
        reason: (reason || errorType || 'unknown').slice(0, MAX_REASON_LENGTH),
      });
    else if (outcome.status === 429 && options.mayRetry) sorted.retry.push(projection);
    else
      sorted.failures.push({
        placeId: projection.placeId,
        status: outcome.status,
        reason: errorType ?? 'unknown',
      });
  });
  return sorted;
}

/**
 * The version the index holds, from a 409's reason (`[id]: version conflict, current version [7] is
 * higher or equal to the one provided [5]`); undefined when the reason does not say.
 */
export function currentVersionOf(reason: string): number | undefined {
  const match = /current version \[(\d{1,15})\]/.exec(reason);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function bulkBodyOf(
  index: string,
  projections: ReadonlyArray<SerializedProjection>,
  trailingLines: ReadonlyArray<string>,
): Buffer {
  // The same for every action line: serialized once per body, not once per document.
  const actionStart = `{"index":{"_index":${JSON.stringify(index)},"_id":`;
  const lines: string[] = [];
  for (const projection of projections) {
    lines.push(
      `${actionStart}${JSON.stringify(projection.placeId)},"version":${projection.version},"version_type":"external"}}`,
      projection.documentJson,
    );
  }
  lines.push(...trailingLines);
  return utf8Lines(lines, { finalNewline: true });
}
