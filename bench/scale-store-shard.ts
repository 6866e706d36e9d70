// One slice of the bulk store (bench/scale-store.ts): a run of the sample-data generator with a seed of
// its own, validated and de-duplicated as the worker does, its places folded, ready as COPY text. No
// database here, so worker threads can run it: the store is the slices in order, whatever thread built
// which, so it is the same for a seed whatever the number of threads.
import {
  doctorDigest,
  documentDigest,
  parsePlaceEvent,
  projectPlace,
  type StoredPlaceEvent,
} from '@directory/domain';
import { generateEvents } from '@directory/sample-data';

/** A slice: the generator's `events` for `seed`, stopped before the new place past `places`. */
export type Shard = { index: number; seed: number; events: number; places: number };

/**
 * Generated events a slice holds: about 2,000 places at ten events a place. Each slice starts the
 * generator afresh and cuts the places still open when it stops (24 at most, about 1 %); a thread holds
 * one slice's rows (about 30 MB of COPY text), so memory sets the upper end.
 */
export const SHARD_EVENTS = 20_000;

/** The seed of slice `index`: the store's own for the first, so a store of one slice is the plain run. */
export function shardSeed(seed: number, index: number): number {
  if (index === 0) return seed;
  // The generator's splitmix32 spreads nearby seeds; this keeps slices of nearby store seeds apart too.
  return (Math.imul(seed >>> 0, 0x2c1b3c6d) + Math.imul(index, 0x9e3779b9)) >>> 0;
}

/**
 * Cuts a store of `events` generated events and at most `places` places into slices of `shardEvents`
 * events (the last one the rest), each allowed the share of `places` its events are of the whole
 * (unlimited when `places` cannot bind: a place takes one event at least).
 */
export function planShards(total: {
  events: number;
  places: number;
  seed: number;
  shardEvents?: number;
}): Shard[] {
  const shardEvents = total.shardEvents ?? SHARD_EVENTS;
  if (!Number.isSafeInteger(shardEvents) || shardEvents <= 0)
    throw new RangeError(`shardEvents must be a whole number > 0, got ${shardEvents}`);
  if (!Number.isSafeInteger(total.events) || total.events < 0)
    throw new RangeError(`events must be a whole number ≥ 0, got ${total.events}`);
  const unlimited = total.places >= total.events;
  const placesBefore = (events: number): number =>
    unlimited ? 0 : Math.floor((total.places * events) / total.events);
  const shards: Shard[] = [];
  for (let start = 0, index = 0; start < total.events; start += shardEvents, index++) {
    const end = Math.min(total.events, start + shardEvents);
    shards.push({
      index,
      seed: shardSeed(total.seed, index),
      events: end - start,
      places: unlimited ? Number.MAX_SAFE_INTEGER : placesBefore(end) - placesBefore(start),
    });
  }
  return shards;
}

/** What building a slice needs beyond the slice: the same for every slice of a store. */
export type ShardSettings = {
  extraRecrawlsPerPlace: number;
  siteOrigin: string;
  /** The events rows' `recorded_at` and the places rows' stamps: the writing transactions' now() and id. */
  eventsNow: string;
  placesNow: string;
  placesXid: string;
};

/** What a load counted, for one slice or the whole store. */
export type StoreCounts = {
  generated: number;
  storedEvents: number;
  places: number;
  servedPlaces: number;
  invalid: number;
  duplicates: number;
};

/** Counts before a load: nothing generated or stored yet. */
export function noCounts(): StoreCounts {
  return { generated: 0, storedEvents: 0, places: 0, servedPlaces: 0, invalid: 0, duplicates: 0 };
}

export type ShardFigures = StoreCounts & {
  placeBytes: number;
  /** Seconds the generator, validation, the fold and the COPY text took. */
  seconds: number;
};

/** A built slice: its events without their final positions yet, which depend on the slices before it. */
export type BuiltShard = {
  index: number;
  /** Positions the slice takes from the sequence (duplicates take one too, as the worker's inserts do). */
  positions: number;
  /** Each stored event's position within the slice (1-based) and its COPY line after the position. */
  eventPositions: number[];
  eventTails: string[];
  placesText: string;
  figures: ShardFigures;
};

/** The worker refolds a place when it gets new events; a place silent this long has had all of its own. */
const IDLE_EVENTS = 20_000;
/** Duplicates are resent recent events: the ids stored within this many events are remembered. */
const RECENT_IDS = 50_000;

type OpenStream = { events: StoredPlaceEvent[]; lastSeen: number };

export function buildShard(shard: Shard, settings: ShardSettings): BuiltShard {
  const started = performance.now();
  const figures: ShardFigures = {
    ...noCounts(),
    placeBytes: 0,
    seconds: 0,
  };
  const eventPositions: number[] = [];
  const eventTails: string[] = [];
  const open = new Map<string, OpenStream>();
  const recentIds = new Set<string>();
  const recentOrder: string[] = [];
  let position = 0;
  let placesText = '';
  const flushPlace = (placeId: string, stream: OpenStream): void => {
    const projection = projectPlace(placeId, stream.events, { siteOrigin: settings.siteOrigin });
    const served = projection.document.served;
    const country = served
      ? projection.document.country
      : lastServedCountry(placeId, stream.events, settings.siteOrigin);
    const documentJson = JSON.stringify(projection.document);
    const line = placeLine(
      placeId,
      documentJson,
      { doctor: doctorDigest(projection.document), document: documentDigest(documentJson) },
      stream.events.length,
      projection.stateVersion,
      served,
      country,
      settings,
    );
    placesText += line;
    figures.placeBytes += Buffer.byteLength(line);
    if (served) figures.servedPlaces++;
    open.delete(placeId);
  };

  for (const raw of generateEvents({
    count: shard.events,
    seed: shard.seed,
    extraRecrawlsPerPlace: settings.extraRecrawlsPerPlace,
    // The slice folds its places itself.
    estimateServed: false,
  })) {
    figures.generated++;
    const parsed = parsePlaceEvent(raw);
    if (!parsed.ok) {
      figures.invalid++;
      continue;
    }
    const event = parsed.value;
    // A resent event is not stored, but its insert took a position from the sequence, as the worker's
    // `on conflict do nothing` does: positions keep the gaps the worker's leave.
    if (recentIds.has(event.eventId)) {
      position++;
      figures.duplicates++;
      continue;
    }
    let stream = open.get(event.placeId);
    if (stream === undefined) {
      if (figures.places >= shard.places) break;
      figures.places++;
      stream = { events: [], lastSeen: 0 };
      open.set(event.placeId, stream);
    }
    position++;
    figures.storedEvents++;
    const occurredAt = new Date(event.occurredAt).toISOString();
    // Folded with positions within the slice: the fold only orders by them, as it would the final ones.
    stream.events.push({ ...event, occurredAt, position });
    stream.lastSeen = position;
    recentIds.add(event.eventId);
    recentOrder.push(event.eventId);
    if (recentOrder.length > RECENT_IDS) recentIds.delete(recentOrder.shift() as string);
    eventPositions.push(position);
    eventTails.push(
      `\t${copyText(event.eventId)}\t${copyText(event.placeId)}\t${copyText(event.type)}\t${occurredAt}\t` +
        `${event.schemaVersion}\t${copyText(JSON.stringify(event.payload))}\t${settings.eventsNow}\n`,
    );
    if (figures.storedEvents % 1_000 === 0) {
      for (const [placeId, idle] of open)
        if (position - idle.lastSeen > IDLE_EVENTS) flushPlace(placeId, idle);
    }
  }
  for (const [placeId, stream] of open) flushPlace(placeId, stream);
  figures.seconds = (performance.now() - started) / 1000;
  return { index: shard.index, positions: position, eventPositions, eventTails, placesText, figures };
}

/** The slice's events as COPY text, its positions following the `offset` positions taken before it. */
export function eventsText(built: Pick<BuiltShard, 'eventPositions' | 'eventTails'>, offset: number): string {
  const lines: string[] = new Array<string>(built.eventTails.length);
  for (let index = 0; index < lines.length; index++)
    lines[index] = `${offset + (built.eventPositions[index] as number)}${built.eventTails[index] as string}`;
  return lines.join('');
}

/**
 * A place as the worker leaves it after appending its events and saving their fold (savePlaceStates):
 * lagging since the append, not yet projected, and in the changes feed at the saving transaction if it was
 * ever served (`country`: the dataset it was last served in).
 */
function placeLine(
  placeId: string,
  documentJson: string,
  digestsHex: { doctor: string; document: string },
  streamVersion: number,
  stateVersion: number,
  served: boolean,
  country: string | null,
  settings: ShardSettings,
): string {
  const now = settings.placesNow;
  const feed = country === null ? '\\N\t\\N\t\\N' : `${settings.placesXid}\t${copyText(country)}\t${now}`;
  // bytea in hex form; COPY's text format takes its backslash doubled.
  return `${copyText(placeId)}\t${copyText(documentJson)}\t${streamVersion}\t${stateVersion}\t0\t${now}\t${served ? 't' : 'f'}\t${now}\t${feed}\t\\\\x${digestsHex.doctor}\t\\\\x${digestsHex.document}\n`;
}

/**
 * The dataset a tombstone was last served in, if it ever was: the worker refolds a place after each batch
 * of its events, and a place served after one of them stays in that dataset's changes feed as a removal.
 * Computed as a worker that stores one event per batch would (the finest the feed can record).
 */
function lastServedCountry(
  placeId: string,
  events: ReadonlyArray<StoredPlaceEvent>,
  siteOrigin: string,
): string | null {
  for (let length = events.length - 1; length > 0; length--) {
    const { document } = projectPlace(placeId, events.slice(0, length), { siteOrigin });
    if (document.served) return document.country;
  }
  return null;
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
export function copyText(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (character) =>
    character === '\\' ? '\\\\' : character === '\t' ? '\\t' : character === '\n' ? '\\n' : '\\r',
  );
}
