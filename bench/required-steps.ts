// The CPU of the pure steps an ingest cannot leave out (validation on both sides of the queue, the
// job moved through Redis, the durable append, the fold and projection), each run alone on the
// benchmark's own events with no server involved. The ingest floor does none of them inside its timer
// (its statements and bulk bodies are prepared beforehand): `cpu_ratio` sets ours' CPU against the
// floor's plus these.
import { parsePlaceEvent, projectPlace, type PlaceEvent, type StoredPlaceEvent } from '@directory/domain';

export type RequiredStep = { step: string; cpuSeconds: number };

export const REQUIRED_STEP_ROUNDS = 7;

/** The median over a few rounds of one step's CPU (user + system, so garbage collection counts). */
function cpuSecondsOf(run: () => void): number {
  const rounds: number[] = [];
  for (let round = 0; round < REQUIRED_STEP_ROUNDS; round++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    rounds.push((used.user + used.system) / 1e6);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(REQUIRED_STEP_ROUNDS / 2)] ?? 0;
}

/**
 * `lines` as the producer reads them, batched as it enqueues them. Each step works on the previous one's
 * output, as in the pipeline; the fold refolds every place a batch touched over its stream so far, as
 * the worker does.
 */
export function measureRequiredSteps(
  lines: ReadonlyArray<string>,
  options: { batchSize: number; siteOrigin: string },
): RequiredStep[] {
  const steps: RequiredStep[] = [];
  const measure = (step: string, run: () => void) => steps.push({ step, cpuSeconds: cpuSecondsOf(run) });

  let raws: unknown[] = [];
  measure('producer: JSON.parse of each line', () => (raws = lines.map((line): unknown => JSON.parse(line))));
  let valid: PlaceEvent[] = [];
  const validate = () =>
    (valid = raws.flatMap((raw) => {
      const parsed = parsePlaceEvent(raw);
      return parsed.ok ? [parsed.value] : [];
    }));
  measure('producer: validation', validate);
  const jobs: Array<{ items: Array<{ raw: PlaceEvent; source: string }> }> = [];
  for (let start = 0; start < valid.length; start += options.batchSize)
    jobs.push({
      items: valid
        .slice(start, start + options.batchSize)
        .map((raw, i) => ({ raw, source: `bench:${start + i}` })),
    });
  let jobBytes: Buffer[] = [];
  // What BullMQ does with a job's data on the way in, and the bytes the worker gets back from Redis.
  measure(
    'queue: job data to JSON bytes',
    () => (jobBytes = jobs.map((job) => Buffer.from(JSON.stringify(job)))),
  );
  measure(
    'worker: job bytes to objects',
    () =>
      (raws = jobBytes.flatMap((bytes) => {
        const job = JSON.parse(bytes.toString()) as { items: Array<{ raw: unknown }> };
        return job.items.map((item) => item.raw);
      })),
  );
  measure('worker: validation', validate);
  measure('worker: payloads to JSON for the append', () =>
    valid.forEach((event) => JSON.stringify(event.payload)),
  );

  const batches = refoldBatches(valid, options.batchSize);
  let documents: unknown[] = [];
  measure(
    'worker: fold and project',
    () =>
      (documents = batches.flatMap((streams) =>
        streams.map(
          (stream) =>
            projectPlace(stream[0]?.placeId ?? '', stream, { siteOrigin: options.siteOrigin }).document,
        ),
      )),
  );
  // One document per place per batch: the documents the ingest floor indexes, serialized before its timer.
  measure('worker: documents to JSON', () => documents.forEach((document) => JSON.stringify(document)));
  return steps;
}

/** Per batch, the stream so far of every place the batch touched: what the worker refolds. */
function refoldBatches(events: ReadonlyArray<PlaceEvent>, batchSize: number): StoredPlaceEvent[][][] {
  const streams = new Map<string, StoredPlaceEvent[]>();
  const batches: StoredPlaceEvent[][][] = [];
  const stored = new Set<string>();
  let position = 0;
  for (let start = 0; start < events.length; start += batchSize) {
    const touched = new Set<string>();
    for (const event of events.slice(start, start + batchSize)) {
      // A repeated event id is stored once: it adds nothing to the stream.
      if (stored.has(event.eventId)) continue;
      stored.add(event.eventId);
      const stream = streams.get(event.placeId) ?? [];
      stream.push({ ...event, position: ++position });
      streams.set(event.placeId, stream);
      touched.add(event.placeId);
    }
    batches.push([...touched].map((placeId) => [...(streams.get(placeId) ?? [])]));
  }
  return batches;
}

/**
 * The one step a replay adds to the I/O of its floor (bench:reindex --replay): refold each place's whole
 * stream, as the store holds it, and serialize its document. Its CPU, median over the rounds.
 */
export function measureReplayFold(events: ReadonlyArray<PlaceEvent>, siteOrigin: string): number {
  // One batch of every event: each place once, over its whole stream.
  const [streams = []] = refoldBatches(events, events.length);
  return cpuSecondsOf(() => {
    for (const stream of streams)
      JSON.stringify(projectPlace(stream[0]?.placeId ?? '', stream, { siteOrigin }).document);
  });
}
