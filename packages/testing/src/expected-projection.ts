import { parsePlaceEvent, type PlaceEvent } from '@directory/domain';
import type { PlaceRow } from '@directory/event-store';
import { foldToRow, MAX_LINE_CHARACTERS } from '@directory/ingest';

export type ExpectedProjection = {
  /** Valid events in input order (duplicates included). */
  validEvents: PlaceEvent[];
  uniqueEvents: number;
  /** Lines that are not JSON or fail validation. */
  invalid: number;
  /** Those lines themselves, in input order (what dead letters must hold). */
  invalidInputs: unknown[];
  /** Each place folded from the input alone, as the store would hold it. */
  rows: Map<string, PlaceRow>;
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
    if (typeof input === 'string' && input.length > MAX_LINE_CHARACTERS) {
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
    validEvents.push(parsed.event);
    eventIds.add(parsed.event.eventId);
    const stream = streams.get(parsed.event.placeId);
    if (stream) stream.push(parsed.event);
    else streams.set(parsed.event.placeId, [parsed.event]);
  }
  const rows = new Map<string, PlaceRow>();
  for (const [placeId, events] of streams) {
    const stored = events.map((event, index) => ({ ...event, position: index + 1 }));
    rows.set(placeId, foldToRow(placeId, stored, siteOrigin));
  }
  return { validEvents, uniqueEvents: eventIds.size, invalid: invalidInputs.length, invalidInputs, rows };
}
