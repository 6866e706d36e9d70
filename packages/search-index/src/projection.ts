import type { Client, estypes } from '@elastic/elasticsearch';
import type { SearchDocument, Tombstone } from '@directory/domain';

/** One place's index copy at a stream version. Tombstones keep their version, so a stale write can't resurrect. */
export type Projection = { placeId: string; version: number; source: SearchDocument | Tombstone };

export type ProjectionResult = { written: number; stale: number };

export class ProjectionError extends Error {
  readonly failures: ReadonlyArray<{ placeId: string; status: number; reason: string }>;
  constructor(failures: ReadonlyArray<{ placeId: string; status: number; reason: string }>) {
    const sample = failures
      .slice(0, 3)
      .map((failure) => `${failure.placeId}: ${failure.status} ${failure.reason}`)
      .join('; ');
    super(`${failures.length} projection(s) not acknowledged by Elasticsearch (${sample})`);
    this.name = 'ProjectionError';
    this.failures = failures;
  }
}

/**
 * Writes projections with the bulk helper and `version_type: external`, checking every item: a 409
 * version conflict means the index already holds a newer (or the same) version, which is success; any
 * other item failure fails the whole call, so the caller's job is retried and nothing is marked
 * projected that is not in the index.
 */
export async function writeProjections(
  client: Client,
  index: string,
  projections: ReadonlyArray<Projection>,
): Promise<ProjectionResult> {
  if (projections.length === 0) return { written: 0, stale: 0 };
  let stale = 0;
  const failures: Array<{ placeId: string; status: number; reason: string }> = [];
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
      projection.source,
    ],
    onDrop: (dropped) => {
      if (dropped.status === 409) stale += 1;
      else
        failures.push({
          placeId: dropped.document.placeId,
          status: dropped.status,
          reason: dropped.error?.type ?? 'unknown',
        });
    },
    flushBytes: 5_000_000,
    concurrency: 1,
    retries: 3,
    wait: 500,
  });
  if (failures.length > 0) throw new ProjectionError(failures);
  return { written: stats.successful, stale };
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
    let body = '';
    for (const projection of pending) {
      body += `{"index":{"_index":${JSON.stringify(index)},"_id":${JSON.stringify(projection.placeId)},"version":${projection.version},"version_type":"external"}}\n${projection.documentJson}\n`;
    }
    // The typed bulk() only takes objects; the transport sends a prepared NDJSON body untouched.
    const response = await client.transport.request<estypes.BulkResponse>({
      method: 'POST',
      path: '/_bulk',
      bulkBody: body,
    });
    const retry: SerializedProjection[] = [];
    const failures: Array<{ placeId: string; status: number; reason: string }> = [];
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
