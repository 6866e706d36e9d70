import { describe, expect, it } from 'vitest';
import { normalizePhone } from '@directory/domain';
import {
  generateLabelledPlaces,
  reformatPhone,
  varyName,
  varyStreet,
  type LabelledPlace,
} from '../src/index.js';
import { createPrng } from '../src/prng.js';

const sample = (count: number, seed = 11): LabelledPlace[] => [...generateLabelledPlaces({ count, seed })];

describe('labelled duplicates', { timeout: 30_000 }, () => {
  it('is deterministic for a seed and differs for another', () => {
    expect(sample(300)).toEqual(sample(300));
    expect(sample(300, 12).map((place) => place.placeId)).not.toEqual(
      sample(300).map((place) => place.placeId),
    );
  });

  it('emits exactly count records with unique ids, every duplicate after its original', () => {
    const places = sample(2_000);
    expect(places).toHaveLength(2_000);
    expect(new Set(places.map((place) => place.placeId)).size).toBe(2_000);
    const originals = new Map<string, LabelledPlace>();
    for (const place of places) {
      if (place.kind === 'duplicate') {
        const original = originals.get(place.clusterId);
        expect(original, place.placeId).toBeDefined();
        expect(place.sourceId).not.toBe(original?.sourceId);
        expect(place.observed.address.country).toBe(original?.observed.address.country);
      } else {
        expect(originals.has(place.clusterId)).toBe(false);
        originals.set(place.clusterId, place);
      }
    }
    const kinds = places.reduce<Record<string, number>>((counts, place) => {
      counts[place.kind] = (counts[place.kind] ?? 0) + 1;
      return counts;
    }, {});
    // About 0.3 × 1.4 duplicates and 0.15 look-alikes per practice.
    expect(kinds['duplicate']).toBeGreaterThan(400);
    expect(kinds['lookalike']).toBeGreaterThan(150);
  });

  it("keeps a duplicate's phone the same number, whatever its notation", () => {
    const places = sample(3_000);
    const originals = new Map(places.filter((p) => p.kind === 'original').map((p) => [p.clusterId, p]));
    let compared = 0;
    for (const place of places.filter((p) => p.kind === 'duplicate' && p.observed.phone !== null)) {
      const original = originals.get(place.clusterId) as LabelledPlace;
      const country = original.observed.address.country;
      expect(normalizePhone(place.observed.phone as string, country)).toBe(
        normalizePhone(original.observed.phone as string, country),
      );
      compared++;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('makes look-alikes share a surname or a building with the practice before them', () => {
    const places = sample(3_000);
    let sameBuilding = 0;
    let sameSurname = 0;
    for (let i = 1; i < places.length; i++) {
      const place = places[i] as LabelledPlace;
      if (place.kind !== 'lookalike') continue;
      const original = places
        .slice(0, i)
        .reverse()
        .find((p) => p.kind === 'original') as LabelledPlace;
      expect(place.clusterId).not.toBe(original.clusterId);
      expect(place.observed.address.city).toBe(original.observed.address.city);
      if (
        place.observed.address.street === original.observed.address.street &&
        place.observed.address.street !== null
      )
        sameBuilding++;
      else sameSurname++;
    }
    expect(sameBuilding).toBeGreaterThan(50);
    expect(sameSurname).toBeGreaterThan(50);
  });
});

describe('variations', () => {
  it('writes a phone in national, international and compact notations of the same number', () => {
    const prng = createPrng(3);
    const forms = new Set(Array.from({ length: 50 }, () => reformatPhone('+493012345678', 'DE', prng)));
    expect(forms).toEqual(new Set(['030 12345678', '+49 30 12345678', '+493012345678', '030-12345678']));
    for (const form of forms) expect(normalizePhone(form, 'DE')).toBe('+493012345678');
  });

  it('abbreviates or writes out street types', () => {
    const prng = createPrng(5);
    expect(varyStreet('Calle Silvia 12', prng)).toBe('C/ Silvia 12');
    expect(varyStreet('C/ Silvia 12', prng)).toBe('Calle Silvia 12');
    expect(varyStreet('Via Igor 3', prng)).toBe('V. Igor 3');
    const german = new Set(Array.from({ length: 40 }, () => varyStreet('Rilkestr. 36c', prng)));
    expect(german).toContain('Rilkestraße 36c');
    expect(german).toContain('Rilkestrasse 36c');
  });

  it('changes titles and accents of a name but keeps its surname recognisable', () => {
    const prng = createPrng(9);
    const names = new Set(Array.from({ length: 200 }, () => varyName('Praxis Dr. Jürgen Müller', prng)));
    expect(names).toContain('Praxis Dra. Jürgen Müller');
    expect(names).toContain('Praxis Dr. Juergen Mueller');
    expect(names).toContain('Praxis Dr. Jurgen Muller');
    expect(names).toContain('PRAXIS DR. JÜRGEN MÜLLER');
    for (const name of names) expect(name.toLowerCase()).toMatch(/m(?:ü|u|ue)ller$/);
  });
});
