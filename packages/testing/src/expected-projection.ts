import {
  MAX_EVENT_LINE_CHARACTERS,
  parsePlaceEvent,
  projectPlace,
  type PlaceEvent,
  type PlaceProjection,
} from '@directory/domain';

export type ExpectedProjection = {
  /** Valid events in input order (duplicates included). */
  validEvents: PlaceEvent[];
  uniqueEvents: number;
  /** Lines that are not JSON or fail validation. */
  invalid: number;
  /** Those lines themselves, in input order (what dead letters must hold). */
  invalidInputs: unknown[];
  /** Each place folded from the input alone, as the store would hold it. */
  rows: Map<string, PlaceProjection>;
};

/**
 * What the pipeline must produce for a batch of raw events (NDJSON lines or objects), computed from
 * the input alone with the same fold and projection code, independently of the store and the queue.
 */
export function projectRawEvents(inputs: Iterable<unknown>, siteOrigin: string): ExpectedProjection {
  const streams = new Map<string, PlaceEvent[]>();
  const validEvents: PlaceEvent[] = [];
  const eventIds = new Set<string>();
  const invalidInputs: unknown[] = [];
  for (const input of inputs) {
    if (typeof input === 'string' && input.trim() === '') continue;
    if (typeof input === 'string' && input.length > MAX_EVENT_LINE_CHARACTERS) {
      invalidInputs.push(input);
      continue;
    }
    let parsed;
    try {
      parsed = parsePlaceEvent(typeof input === 'string' ? JSON.parse(input) : input);
    } catch {
      invalidInputs.push(input);
      continue;
    }
    if (!parsed.ok) {
      invalidInputs.push(input);
      continue;
    }
    validEvents.push(parsed.value);
    eventIds.add(parsed.value.eventId);
    const stream = streams.get(parsed.value.placeId);
    if (stream) stream.push(parsed.value);
    else streams.set(parsed.value.placeId, [parsed.value]);
  }
  const rows = new Map<string, PlaceProjection>();
  for (const [placeId, events] of streams) {
    const stored = events.map((event, index) => ({ ...event, position: index + 1 }));
    rows.set(placeId, projectPlace(placeId, stored, { siteOrigin }));
  }
  return { validEvents, uniqueEvents: eventIds.size, invalid: invalidInputs.length, invalidInputs, rows };
}
