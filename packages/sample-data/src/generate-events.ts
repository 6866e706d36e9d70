import { Faker } from '@faker-js/faker';
import {
  LIVE_COUNTRY_CODES,
  foldPlace,
  isServed,
  type CountryCode,
  type PlaceEvent,
} from '@directory/domain';
import { citiesOf, pickCity } from './cities.js';
import {
  crawledEvent,
  emptyEvent,
  publishedEvent,
  reasonEvent,
  type EventHeader,
  type RawEvent,
} from './event-builders.js';
import { invalidEvent } from './invalid-events.js';
import { LOCALES, type CountryLocale } from './locales.js';
import { createPlace, recrawl, type SamplePlace } from './place.js';
import { planSteps, type Step } from './place-plan.js';
import { createPrng, type Prng } from './prng.js';

export type GenerateOptions = {
  count: number;
  seed: number;
  /** Time of the first event; later events advance from it. Defaults to 2026-01-01T00:00:00Z. */
  startTime?: string | Date;
  /**
   * Recrawls added to each place's plan on average (fractional means round up or down at random), for a
   * store with the history of a directory crawled weekly. Defaults to 0: the same sequence as without it.
   */
  extraRecrawlsPerPlace?: number;
  /**
   * Fold each finished place to count it in `servedEstimate` (the default). A caller that folds the places
   * itself turns it off: the fold was about 40 % of the generator's time. The events are the same either way.
   */
  estimateServed?: boolean;
};

export type GenerationSummary = {
  events: number;
  /** Valid events (duplicates included) by type. */
  byType: Record<string, number>;
  invalid: number;
  duplicates: number;
  outOfOrder: number;
  places: number;
  placesByCountry: Record<string, number>;
  /** Places a correct fold serves once every event is ingested (0 without `estimateServed`). */
  servedEstimate: number;
};

/** An event with what the generator meant it to be, so tests can check intent against validation. */
export type LabelledEvent = { event: RawEvent; label: 'valid' | 'invalid' | 'duplicate' };

export const DEFAULT_START_TIME = '2026-01-01T00:00:00Z';

// Rates are per emitted event. Places are interleaved through a small pool of "open" places, so a
// place's events are spread over the stream while memory stays bounded whatever the count.
const INVALID_RATE = 0.01;
const DUPLICATE_RATE = 0.015;
const OUT_OF_ORDER_RATE = 0.03;
const POOL_SIZE = 24;
const RECENT_EVENTS = 256;
const COUNTRY_WEIGHTS: Readonly<Record<CountryCode, number>> = {
  de: 22,
  es: 18,
  it: 16,
  pt: 9,
  fr: 14,
  gb: 12,
  mx: 9,
};
const LIVE: ReadonlySet<string> = new Set(LIVE_COUNTRY_CODES);

type OpenPlace = {
  place: SamplePlace;
  live: boolean;
  steps: ReadonlyArray<Step>;
  nextStep: number;
  eventNumber: number;
  latestOccurredMs: number;
  /** The place's valid events so far, folded once when it closes to count it as served or not. */
  events: PlaceEvent[];
};

/**
 * Deterministic, realistic place events as raw JSON objects: the same options always yield the same
 * sequence. Lazy, so a million events never sit in memory; the summary is the generator's return value.
 * A duplicate is the very same object yielded again (same eventId), as a retrying producer would send.
 */
export function* generateEvents(options: GenerateOptions): Generator<RawEvent, GenerationSummary, undefined> {
  const labelled = generateLabelledEvents(options);
  let step = labelled.next();
  while (step.done !== true) {
    yield step.value.event;
    step = labelled.next();
  }
  return step.value;
}

/** `generateEvents` with each event's label; same sequence for the same options. */
export function* generateLabelledEvents(
  options: GenerateOptions,
): Generator<LabelledEvent, GenerationSummary, undefined> {
  const startMs = checkedStartMs(options);
  const run: GenerationRun = {
    prng: createPrng(options.seed),
    summary: emptySummary(),
    recent: [],
    estimateServed: options.estimateServed ?? true,
  };
  const openPlace = placeOpener(run.prng, seededFakers(options.seed), options.extraRecrawlsPerPlace ?? 0);
  const pool = Array.from({ length: POOL_SIZE }, openPlace);
  let clockMs = startMs;

  while (run.summary.events < options.count) {
    clockMs += run.prng.int(1_000, 20_000);
    const roll = run.prng.next();
    const slot = run.prng.int(0, pool.length - 1);
    const open = pool[slot] as OpenPlace;
    let labelled: LabelledEvent;
    if (roll < INVALID_RATE) {
      labelled = invalidPlaceEvent(run, open, clockMs);
    } else if (roll < INVALID_RATE + DUPLICATE_RATE && run.recent.length > 0) {
      labelled = duplicateOfRecentEvent(run);
    } else {
      labelled = nextStepEvent(run, open, clockMs);
      if (open.nextStep >= open.steps.length) {
        if (run.estimateServed) closePlace(run.summary, open);
        pool[slot] = openPlace();
      }
    }
    run.summary.events++;
    yield labelled;
  }
  if (run.estimateServed) for (const open of pool) if (open.nextStep > 0) closePlace(run.summary, open);
  return run.summary;
}

/** What one run carries from event to event: its random source, its counts and its latest events. */
type GenerationRun = { prng: Prng; summary: GenerationSummary; recent: RawEvent[]; estimateServed: boolean };

/** The time of the first event, once count, seed and the extra recrawls are known to be valid. */
function checkedStartMs(options: GenerateOptions): number {
  const { count, seed, extraRecrawlsPerPlace = 0 } = options;
  if (!Number.isFinite(extraRecrawlsPerPlace) || extraRecrawlsPerPlace < 0)
    throw new RangeError(`extraRecrawlsPerPlace must be a number ≥ 0, got ${extraRecrawlsPerPlace}`);
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number ≥ 0, got ${count}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a whole number, got ${seed}`);
  const startMs = new Date(options.startTime ?? DEFAULT_START_TIME).getTime();
  if (Number.isNaN(startMs))
    throw new RangeError(`startTime is not a valid date: ${String(options.startTime)}`);
  return startMs;
}

/** One Faker per country, seeded: the shared `fakerDE` etc. would leak state between concurrent runs. */
function seededFakers(seed: number): ReadonlyMap<string, Faker> {
  return new Map(
    LOCALES.map((locale) => {
      const faker = new Faker({ locale: [...locale.fakerLocales] });
      faker.seed(seed);
      return [locale.dataset, faker] as const;
    }),
  );
}

function emptySummary(): GenerationSummary {
  return {
    events: 0,
    byType: {},
    invalid: 0,
    duplicates: 0,
    outOfOrder: 0,
    places: 0,
    placesByCountry: {},
    servedEstimate: 0,
  };
}

/** Makes the next place of the run, with the plan of its events. */
function placeOpener(prng: Prng, fakers: ReadonlyMap<string, Faker>, extraRecrawls: number): () => OpenPlace {
  let placesCreated = 0;
  return () => {
    // The first places cycle through every country so even small samples cover all seven.
    const locale =
      placesCreated < LOCALES.length ? (LOCALES[placesCreated] as CountryLocale) : pickLocale(prng);
    placesCreated++;
    const faker = fakers.get(locale.dataset) as Faker;
    const place = createPlace(locale, pickCity(citiesOf(locale.isoCountry), prng), faker, prng);
    const live = LIVE.has(locale.dataset);
    const steps = planSteps(live, prng, extraRecrawls);
    return {
      place,
      live,
      steps,
      nextStep: 0,
      eventNumber: 0,
      latestOccurredMs: -Infinity,
      events: [],
    };
  };
}

/**
 * Counts a finished place as served or not. The domain's own fold decides, so the estimate cannot
 * drift from what the pipeline serves.
 */
function closePlace(summary: GenerationSummary, open: OpenPlace): void {
  const stream = open.events.map((event, index) => ({ ...event, position: index + 1 }));
  if (isServed(foldPlace(open.place.placeId, stream))) summary.servedEstimate++;
}

function invalidPlaceEvent(run: GenerationRun, open: OpenPlace, clockMs: number): LabelledEvent {
  const event = invalidEvent(open.place, open.live, nextHeader(open, clockMs), run.prng);
  run.summary.invalid++;
  return { event, label: 'invalid' };
}

/** The very same object as a recent event, as a retrying producer would send it again. */
function duplicateOfRecentEvent(run: GenerationRun): LabelledEvent {
  const event = run.prng.pick(run.recent);
  run.summary.duplicates++;
  countType(run.summary, event);
  return { event, label: 'duplicate' };
}

/** The place's next planned event; now and then a late delivery of something that happened earlier. */
function nextStepEvent(run: GenerationRun, open: OpenPlace, clockMs: number): LabelledEvent {
  const { prng, summary } = run;
  const step = open.steps[open.nextStep] as Step;
  open.nextStep++;
  let occurredMs = clockMs;
  if (open.nextStep > 1 && prng.chance(OUT_OF_ORDER_RATE)) {
    // A late delivery: it happened before something of this place we already emitted.
    occurredMs = open.latestOccurredMs - prng.int(60_000, 3 * 86_400_000);
    summary.outOfOrder++;
  }
  const header = nextHeader(open, occurredMs);
  open.latestOccurredMs = Math.max(open.latestOccurredMs, occurredMs);
  const event = stepEvent(step, open.place, header, prng);
  if (open.nextStep === 1) {
    summary.places++;
    const country = open.place.locale.dataset;
    summary.placesByCountry[country] = (summary.placesByCountry[country] ?? 0) + 1;
  }
  // Step events are valid by construction (the fold-consistency spec parses every one).
  if (run.estimateServed) open.events.push(event as PlaceEvent);
  countType(summary, event);
  run.recent.push(event);
  if (run.recent.length > RECENT_EVENTS) run.recent.shift();
  return { event, label: 'valid' };
}

function nextHeader(open: OpenPlace, occurredMs: number): EventHeader {
  open.eventNumber++;
  return {
    eventId: `ev_${open.place.placeId}_${open.eventNumber}`,
    placeId: open.place.placeId,
    occurredAt: new Date(occurredMs).toISOString(),
  };
}

function stepEvent(step: Step, place: SamplePlace, header: EventHeader, prng: Prng): RawEvent {
  switch (step) {
    case 'crawl':
      return crawledEvent(place, header, prng);
    case 'recrawl':
      recrawl(place, prng);
      return crawledEvent(place, header, prng);
    case 'published':
      return publishedEvent(place, header);
    case 'suppressed':
    case 'unsuppressed':
      return reasonEvent(header, `place.${step}`, prng);
    case 'unpublished':
    case 'closed':
    case 'reopened':
    case 'verified':
    case 'unverified':
      return emptyEvent(header, `place.${step}`);
  }
}

function pickLocale(prng: Prng): CountryLocale {
  const total = LOCALES.reduce((sum, locale) => sum + COUNTRY_WEIGHTS[locale.dataset], 0);
  let target = prng.next() * total;
  for (const locale of LOCALES) {
    target -= COUNTRY_WEIGHTS[locale.dataset];
    if (target < 0) return locale;
  }
  return LOCALES[0] as CountryLocale;
}

function countType(summary: GenerationSummary, event: RawEvent) {
  const type = String(event['type']);
  summary.byType[type] = (summary.byType[type] ?? 0) + 1;
}
