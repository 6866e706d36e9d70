import { describe, expect, it } from 'vitest';
import {
  doctorSchema,
  foldPlace,
  isServed,
  parsePlaceEvent,
  projectPlace,
  toSearchDocument,
  type StoredPlaceEvent,
} from '@directory/domain';
import { generateLabelledEvents, type GenerationSummary } from '../src/generate-events.js';

// Replays a sample through the real fold, as the worker will, to check the generator's own bookkeeping.
function replay(count: number, seed: number) {
  const streams = new Map<string, StoredPlaceEvent[]>();
  const generator = generateLabelledEvents({ count, seed });
  let position = 0;
  let step = generator.next();
  while (step.done !== true) {
    position++;
    const parsed = parsePlaceEvent(step.value.event);
    if (parsed.ok) {
      const stream = streams.get(parsed.value.placeId) ?? [];
      stream.push({ ...parsed.value, position });
      streams.set(parsed.value.placeId, stream);
    }
    step = generator.next();
  }
  const summary: GenerationSummary = step.value;
  const states = [...streams].map(([placeId, events]) => foldPlace(placeId, events));
  return { summary, states, streams };
}

describe('generated events through the domain fold', () => {
  const { summary, states, streams } = replay(5_000, 11);
  const served = states.filter(isServed);

  it('serves exactly the places the summary estimates', () => {
    expect(states).toHaveLength(summary.places);
    expect(served.length).toBe(summary.servedEstimate);
    expect(served.length).toBeGreaterThan(summary.places / 4);
  });

  it('turns every served place into a valid public Doctor with a usable phone', () => {
    let withPhone = 0;
    for (const state of served) {
      const document = toSearchDocument(state, { siteOrigin: 'https://doctors.example.com' });
      if (!document.served) throw new Error(`${state.placeId} should be served`);
      expect(doctorSchema.safeParse(document.doctor).error).toBeUndefined();
      expect(document.doctor.name).not.toBeNull();
      if (document.doctor.phone !== null) withPhone++;
    }
    expect(withPhone / served.length).toBeGreaterThan(0.9);
  });

  it("projects every place to the document its folded state makes (the projection reuses the fold's record)", () => {
    const options = { siteOrigin: 'https://doctors.example.com' };
    for (const [placeId, events] of streams) {
      expect(projectPlace(placeId, events, options).document).toEqual(
        toSearchDocument(foldPlace(placeId, events), options),
      );
    }
  });

  it('serves only live countries', () => {
    const countries = new Set(served.map((state) => state.publication?.country));
    expect([...countries].sort()).toEqual(['de', 'es', 'it', 'pt']);
  });
});
