// The pure parts of bench:ingest's floor and of its CPU figures: the floor's batches as ours cuts them,
// its bulk bodies, and the ratios and goals computed from what each side spent.
import { utf8Lines, type PlaceEvent } from '@directory/domain';
import { projectRawEvents } from '@directory/testing';

/** What the floor does, as the JSON line names it. */
export const FLOOR_DEFINITION = 'events insert + one document per place per batch';

/** What the floor makes durable and indexes for one of the producer's batches. */
export type FloorBatch = {
  /** The batch's valid events, repeats included (the insert drops them, as the store does). */
  events: PlaceEvent[];
  /** The distinct places the batch gave a new event: the documents the design must write for it. */
  placeIds: string[];
};

/**
 * `lines` cut as the producer cuts them, `batchSize` non-blank lines a job (its byte bound, 8 MiB by
 * default, is far above a thousand generated events), each batch with its valid events and the places
 * whose stream it changed. An event id seen in an earlier batch or earlier in this one changes nothing:
 * the worker refolds only places that got a stored event.
 */
export function planFloorBatches(lines: ReadonlyArray<string>, batchSize: number): FloorBatch[] {
  const nonBlank = lines.filter((line) => line.trim() !== '');
  const stored = new Set<string>();
  const batches: FloorBatch[] = [];
  for (let start = 0; start < nonBlank.length; start += batchSize) {
    // Only the validity of each line is wanted here; the site origin does not change it.
    const { validEvents } = projectRawEvents(
      nonBlank.slice(start, start + batchSize),
      'https://unused.example',
    );
    const placeIds = new Set<string>();
    for (const event of validEvents) {
      if (stored.has(event.eventId)) continue;
      stored.add(event.eventId);
      placeIds.add(event.placeId);
    }
    batches.push({ events: validEvents, placeIds: [...placeIds] });
  }
  return batches;
}

/** One plain index action per place, its document as prepared JSON text: an NDJSON bulk body. */
export function floorBulkBody(
  index: string,
  placeIds: ReadonlyArray<string>,
  documentJson: ReadonlyMap<string, string>,
): Buffer {
  const lines: string[] = [];
  for (const placeId of placeIds) {
    const document = documentJson.get(placeId);
    if (document === undefined) throw new Error(`no document for place ${placeId}`);
    lines.push(JSON.stringify({ index: { _index: index, _id: placeId } }), document);
  }
  return utf8Lines(lines, { finalNewline: true });
}

/** CPU seconds per 1,000 events. */
export function perThousandEvents(cpuSeconds: number, events: number): number {
  return (cpuSeconds / events) * 1000;
}

/**
 * Ours' CPU against the least any implementation spends: the floor's I/O (its engines and driver work,
 * with everything it sends prepared beforehand) plus the pure steps the design requires, which the floor
 * does not do inside its timed phase. All three per 1,000 events.
 */
export function cpuRatio(figures: { ours: number; floor: number; requiredSteps: number }): number {
  return figures.ours / (figures.floor + figures.requiredSteps);
}

/** One timed phase as the round's figures need it. */
export type PhaseFigures = {
  seconds: number;
  /** Process CPU of every participant (steal is never in a process's CPU). */
  cpuSeconds: number;
  stealSeconds: number;
};

/** One round's figures; rates in events/s, CPU in CPU seconds per 1,000 events. */
export type RoundFigures = {
  ours: number;
  floor: number;
  raw: number;
  ratio: number;
  ratioFloor: number;
  oursCpu: number;
  floorCpu: number;
  cpuRatio: number;
  bestRatioFloor: number;
  stealSeconds: number;
};

/**
 * Ours and the floor take the same `events` (the input, invalid lines included); raw indexes
 * `rawEvents`, one per valid event. The best case is the floor's CPU plus the required steps spread over
 * every core with none idle: the fastest ours could go on this machine.
 */
export function roundFigures(
  phases: { ours: PhaseFigures; floor: PhaseFigures; raw: PhaseFigures },
  context: { events: number; rawEvents: number; requiredCpuSeconds: number; cores: number },
): RoundFigures {
  const { ours, floor, raw } = phases;
  const oursRate = context.events / ours.seconds;
  const floorRate = context.events / floor.seconds;
  const rawRate = context.rawEvents / raw.seconds;
  const oursCpu = perThousandEvents(ours.cpuSeconds, context.events);
  const floorCpu = perThousandEvents(floor.cpuSeconds, context.events);
  const requiredSteps = perThousandEvents(context.requiredCpuSeconds, context.events);
  const bestSeconds = (floor.cpuSeconds + context.requiredCpuSeconds) / context.cores;
  return {
    ours: oursRate,
    floor: floorRate,
    raw: rawRate,
    ratio: oursRate / rawRate,
    ratioFloor: oursRate / floorRate,
    oursCpu,
    floorCpu,
    cpuRatio: cpuRatio({ ours: oursCpu, floor: floorCpu, requiredSteps }),
    bestRatioFloor: floor.seconds / bestSeconds,
    stealSeconds: ours.stealSeconds + floor.stealSeconds + raw.stealSeconds,
  };
}

export const CPU_RATIO_GOAL = 1.15;
export const THROUGHPUT_GOAL_EVENTS_PER_SECOND = 3_000;

/** The goal lines, each ✔ or ✘, from the medians. */
export function ingestGoalLines(medians: {
  cpuRatio: number;
  oursEventsPerSecond: number;
  ratioFloor: number;
}): string[] {
  const mark = (met: boolean) => (met ? '✔' : '✘');
  return [
    `${mark(medians.cpuRatio <= CPU_RATIO_GOAL)} cpu_ratio ${medians.cpuRatio.toFixed(3)} ≤ ${CPU_RATIO_GOAL}`,
    `${mark(medians.oursEventsPerSecond >= THROUGHPUT_GOAL_EVENTS_PER_SECOND)} ours ` +
      `${Math.round(medians.oursEventsPerSecond)} events/s ≥ ${THROUGHPUT_GOAL_EVENTS_PER_SECOND} (median)`,
    `  ratio_floor ${medians.ratioFloor.toFixed(3)} (reported, no goal)`,
  ];
}
