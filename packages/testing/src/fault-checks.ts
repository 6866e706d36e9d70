import type { Database } from '@directory/database';
import {
  MAX_EVENT_LINE_CHARACTERS,
  projectPlace,
  type PlaceEvent,
  type StoredPlaceEvent,
} from '@directory/domain';
import { allPlaceIds, listDeadLetters, readStreams } from '@directory/event-store';
import type { SearchClient } from '@directory/search-index';
import { projectRawEvents } from './expected-projection.js';

/**
 * The convergence checks every fault scenario ends with (issue "Nothing lost, nothing resurrected"):
 *  1. the events stored equal the valid input lines, each exactly once;
 *  2. the dead letters hold exactly the invalid lines (as the producer sent them);
 *  3. the index equals a replay of the store: every place's stream folded again with the production
 *     fold, same ids, same documents (tombstones included), same versions, and nothing else.
 * `checkConvergence` returns the problems found (empty when converged); `waitForConvergence` polls it
 * until converged (faults heal asynchronously); `assertConverged` throws at once with every problem.
 */
export type ConvergenceInput = {
  db: Database;
  search: { client: SearchClient; alias: string };
  siteOrigin: string;
  /** Every raw line sent (NDJSON lines or event objects), invalid ones and blank ones included. */
  lines: Iterable<unknown>;
  /** Events the scenario put into the store directly (e.g. stored before today's schema limits). */
  storedDirectly?: ReadonlyArray<PlaceEvent>;
  /**
   * Places expected to be missing from the index (a document Elasticsearch refused, recorded as a
   * projection failure); they are still checked in the store.
   */
  unprojectable?: ReadonlyArray<string>;
};

const MAX_PROBLEMS = 20;

export async function checkConvergence(input: ConvergenceInput): Promise<string[]> {
  const problems: string[] = [];
  const inputs = [...input.lines];
  const replay = await replayStore(input.db, input.siteOrigin);
  problems.push(...checkEvents(inputs, input.storedDirectly ?? [], input.siteOrigin, replay.events));
  problems.push(...(await checkDeadLetters(input.db, inputs)));
  problems.push(...(await checkIndex(input, replay.rows)));
  return problems.length > MAX_PROBLEMS
    ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more`]
    : problems;
}

export async function assertConverged(input: ConvergenceInput): Promise<void> {
  const problems = await checkConvergence(input);
  if (problems.length > 0) throw new Error(`not converged:\n  ${problems.join('\n  ')}`);
}

/** Polls `checkConvergence` until it finds nothing wrong; throws with the last problems on timeout. */
export async function waitForConvergence(input: ConvergenceInput, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problems = await checkConvergence(input);
    if (problems.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`not converged after ${timeoutMs} ms:\n  ${problems.join('\n  ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type Replay = {
  events: StoredPlaceEvent[];
  rows: Map<string, { document: unknown; version: number }>;
};

/** Every stream in the store, read with the event store's own readers and folded with the worker's fold. */
async function replayStore(db: Database, siteOrigin: string): Promise<Replay> {
  const events: StoredPlaceEvent[] = [];
  const rows: Replay['rows'] = new Map();
  for await (const placeIds of allPlaceIds(db)) {
    const streams = await readStreams(db, placeIds);
    for (const [placeId, stream] of streams) {
      events.push(...stream);
      const place = projectPlace(placeId, stream, { siteOrigin });
      rows.set(placeId, { document: place.document, version: place.stateVersion });
    }
  }
  return { events, rows };
}

function checkEvents(
  inputs: unknown[],
  storedDirectly: ReadonlyArray<PlaceEvent>,
  siteOrigin: string,
  stored: StoredPlaceEvent[],
): string[] {
  const problems: string[] = [];
  // Every version of each valid event id in the input (a repeated id may differ; the store keeps one).
  const expected = new Map<string, string[]>();
  for (const event of [...storedDirectly, ...projectRawEvents(inputs, siteOrigin).validEvents]) {
    const versions = expected.get(event.eventId) ?? [];
    versions.push(canonicalEvent(event));
    expected.set(event.eventId, versions);
  }
  const seen = new Set<string>();
  for (const event of stored) {
    const { position: _position, ...rest } = event;
    if (seen.has(event.eventId)) problems.push(`event ${event.eventId} stored more than once`);
    seen.add(event.eventId);
    const versions = expected.get(event.eventId);
    if (!versions) problems.push(`event ${event.eventId} stored but not in the valid input`);
    else if (!versions.includes(canonicalEvent(rest)))
      problems.push(`event ${event.eventId} stored differently from the input`);
  }
  for (const eventId of expected.keys())
    if (!seen.has(eventId)) problems.push(`event ${eventId} of the valid input was not stored`);
  return problems;
}

async function checkDeadLetters(db: Database, inputs: unknown[]): Promise<string[]> {
  const expected = projectRawEvents(inputs, 'https://unused.example').invalidInputs.map(asSent);
  const letters = await listDeadLetters(db, { includeRedriven: true, limit: 1_000_000 });
  const actual = letters.map((letter) => canonicalJson(letter.raw));
  const problems: string[] = [];
  if (actual.length !== expected.length)
    problems.push(`${actual.length} dead letters, but the input has ${expected.length} invalid lines`);
  const missing = multisetDifference(expected, actual);
  const extra = multisetDifference(actual, expected);
  for (const raw of missing) problems.push(`invalid line not in dead letters: ${raw.slice(0, 120)}`);
  for (const raw of extra) problems.push(`dead letter not among the invalid lines: ${raw.slice(0, 120)}`);
  return problems;
}

/** A line as the producer sends it to dead letters: parsed when it is JSON, else its text. */
function asSent(input: unknown): string {
  if (typeof input !== 'string') return canonicalJson(input);
  if (input.length > MAX_EVENT_LINE_CHARACTERS)
    return canonicalJson(input.slice(0, MAX_EVENT_LINE_CHARACTERS));
  try {
    return canonicalJson(JSON.parse(input));
  } catch {
    return canonicalJson(input);
  }
}

async function checkIndex(input: ConvergenceInput, replay: Replay['rows']): Promise<string[]> {
  const problems: string[] = [];
  const unprojectable = new Set(input.unprojectable ?? []);
  const indexed = await indexedDocuments(input.search.client, input.search.alias);
  for (const [placeId, row] of replay) {
    const hit = indexed.get(placeId);
    if (unprojectable.has(placeId)) {
      if (hit) problems.push(`place ${placeId} is in the index but was expected to be refused`);
      continue;
    }
    if (!hit) problems.push(`place ${placeId} is in the store but not in the index`);
    else if (hit.version !== row.version)
      problems.push(`place ${placeId}: index holds version ${hit.version}, the store ${row.version}`);
    else if (canonicalJson(hit.document) !== canonicalJson(row.document))
      problems.push(`place ${placeId}: indexed document differs from a replay of the store`);
  }
  for (const placeId of indexed.keys())
    if (!replay.has(placeId)) problems.push(`place ${placeId} is in the index but not in the store`);
  return problems;
}

/** Every document behind the alias (served ones and tombstones) with its external version. */
async function indexedDocuments(
  client: SearchClient,
  alias: string,
): Promise<Map<string, { document: unknown; version: number }>> {
  await client.indices.refresh({ index: alias });
  const documents = new Map<string, { document: unknown; version: number }>();
  let after: string[] | undefined;
  for (;;) {
    const response = await client.search<unknown>({
      index: alias,
      size: 5_000,
      version: true,
      sort: [{ placeId: 'asc' }],
      ...(after ? { search_after: after } : {}),
      query: { match_all: {} },
    });
    const hits = response.hits.hits;
    for (const hit of hits)
      documents.set(hit._id ?? '', { document: hit._source, version: hit._version ?? -1 });
    const last = hits[hits.length - 1];
    if (!last || hits.length < 5_000) return documents;
    after = last.sort as string[];
  }
}

function canonicalEvent(event: { occurredAt: string } & Record<string, unknown>): string {
  return canonicalJson({ ...event, occurredAt: new Date(event.occurredAt).toISOString() });
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function multisetDifference(from: string[], remove: string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of remove) counts.set(item, (counts.get(item) ?? 0) + 1);
  return from.filter((item) => {
    const count = counts.get(item) ?? 0;
    if (count === 0) return true;
    counts.set(item, count - 1);
    return false;
  });
}

/**
 * API responses seen under load, by status. A fault may make the API answer 503 (a problem+json body
 * naming the dependency), never 500 nor any other 5xx, and never a dropped connection.
 */
export type ResponseTally = {
  byStatus: Map<number, number>;
  /** Responses (or transport errors) a fault must never cause, described. */
  unacceptable: string[];
};

export function createResponseTally(): ResponseTally {
  return { byStatus: new Map(), unacceptable: [] };
}

/** Sends `request` once and records the outcome in the tally; never throws. */
export async function recordResponse(tally: ResponseTally, request: () => Promise<Response>): Promise<void> {
  try {
    const response = await request();
    const body = await response.text();
    tally.byStatus.set(response.status, (tally.byStatus.get(response.status) ?? 0) + 1);
    const problemJson = (response.headers.get('content-type') ?? '').startsWith('application/problem+json');
    if (response.status >= 500 && !(response.status === 503 && problemJson))
      tally.unacceptable.push(`${response.status} ${body.slice(0, 200)}`);
  } catch (error) {
    tally.unacceptable.push(`request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Keeps `concurrency` requests in flight until `stop()` is called (steady load during a fault), then
 * returns the tally. `request` builds one request (vary paths and queries inside it if you like).
 */
export function startLoad(
  request: () => Promise<Response>,
  options: { concurrency?: number; pauseMs?: number } = {},
): { tally: ResponseTally; stop: () => Promise<ResponseTally> } {
  const tally = createResponseTally();
  let running = true;
  const loop = async () => {
    while (running) {
      await recordResponse(tally, request);
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const loops = Array.from({ length: options.concurrency ?? 4 }, loop);
  return {
    tally,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** Throws when the tally holds any 5xx other than a 503 problem+json, or a failed request. */
export function assertNoServerErrors(tally: ResponseTally): void {
  const total = [...tally.byStatus.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0 && tally.unacceptable.length === 0) throw new Error('no responses were recorded');
  if (tally.unacceptable.length > 0)
    throw new Error(
      `${tally.unacceptable.length} unacceptable responses (of ${total + tally.unacceptable.length}):\n  ` +
        tally.unacceptable.slice(0, 10).join('\n  '),
    );
}
