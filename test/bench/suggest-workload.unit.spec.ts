import { describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/seeded-random.js';
import { drawSequence, keystrokesOf, MAX_TYPED, specialtyLabels } from '../../bench/suggest-workload.js';

describe('keystrokesOf', () => {
  it('types a text one character at a time, up to MAX_TYPED, leaving out blank prefixes', () => {
    expect(keystrokesOf('Ab c')).toEqual(['A', 'Ab', 'Ab ', 'Ab c']);
    expect(keystrokesOf(' x')).toEqual([' x']);
    expect(keystrokesOf('Ärztehaus am Marktplatz Süd').at(-1)).toBe('Ärztehaus am M');
    expect(keystrokesOf('Ärztehaus am Marktplatz Süd')).toHaveLength(MAX_TYPED);
  });
});

describe('drawSequence', () => {
  it('draws a name, a surname, a city or a specialty label, about a quarter each', () => {
    const random = createRandom(5);
    const texts = { names: ['Praxis Weber'], cities: ['Berlin'], specialties: ['Kardiologie'] };
    const counts = new Map<string, number>();
    for (let draw = 0; draw < 400; draw += 1) {
      const text = drawSequence(random, 'de', texts).keystrokes.at(-1) ?? '';
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['Berlin', 'Kardiologie', 'Praxis Weber', 'Weber']);
    for (const count of counts.values()) expect(count).toBeGreaterThan(60);
  });

  it('types a city in place of a specialty label when the dataset has none', () => {
    const random = createRandom(1);
    const texts = { names: ['Weber'], cities: ['Berlin'], specialties: [] };
    const typed = Array.from({ length: 100 }, () => drawSequence(random, 'de', texts).keystrokes.at(-1));
    expect(new Set(typed)).toEqual(new Set(['Weber', 'Berlin']));
  });
});

describe('specialtyLabels', () => {
  it('labels codes in the dataset’s own language, once each, unknown codes left out', () => {
    expect(specialtyLabels('it', ['cardiology', 'cardiology', 'no-such-code'])).toEqual(['Cardiologia']);
    expect(specialtyLabels('de', ['acupuncture'])).toEqual(['Akupunktur']);
  });
});
