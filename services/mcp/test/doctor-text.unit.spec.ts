import { describe, expect, it } from 'vitest';
import { toDoctor, type Doctor } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import { renderDoctor, renderPage } from '../src/tools/doctor-text.js';

function ratingLine(rating: number | null, reviewCount: number | null): string | undefined {
  const doctor: Doctor = {
    ...toDoctor(placeState({ id: 'text-1', name: 'Praxis Text' }), { siteOrigin: SITE_ORIGIN }),
    rating,
    reviewCount,
  };
  return renderDoctor(doctor)
    .split('\n')
    .find((line) => line.startsWith('Rating'));
}

describe('renderDoctor: the rating line', () => {
  it('shows the rating alone when the review count is unknown, not "(0 reviews)"', () => {
    expect(ratingLine(4.2, null)).toBe('Rating: 4.2');
  });

  it('counts reviews, singular for one', () => {
    expect(ratingLine(4.5, 12)).toBe('Rating: 4.5 (12 reviews)');
    expect(ratingLine(5, 1)).toBe('Rating: 5 (1 review)');
    expect(ratingLine(3, 0)).toBe('Rating: 3 (0 reviews)');
  });

  it('has no rating line without a rating', () => {
    expect(ratingLine(null, 7)).toBeUndefined();
  });
});

describe('renderPage: the facet lines', () => {
  const page = { count: 0, hasMore: false, nextCursor: null };

  it('lists each facet on one line after the records, labels quoted, also when nothing matches', () => {
    const text = renderPage({
      doctors: [],
      page,
      facets: {
        specialty: [{ value: 'dentistry', count: 3, label: 'Dentistry' }],
        verified: [
          { value: 'true', count: 2 },
          { value: 'false', count: 1 },
        ],
        language: [],
      },
    });
    expect(text.split('\n')).toEqual([
      'No doctors match these filters.',
      'Facets (records each value finds; pass the value as that argument, every other filter kept):',
      '- specialty: dentistry "Dentistry" 3',
      '- verified: true 2, false 1',
      '- language: none',
    ]);
  });

  it('says what to try after an empty page: each suggestion as the argument to change, or a hint', () => {
    const text = renderPage({
      doctors: [],
      page,
      suggestions: [
        { kind: 'query', q: 'zahnarzt', resultCount: 3 },
        { kind: 'radius', radius: 25_000, resultCount: 1 },
        { kind: 'city', city: 'muenchen', name: 'München\n- forged', resultCount: 12 },
      ],
    });
    expect(text.split('\n')).toEqual([
      'No doctors match these filters.',
      'Try instead (call search_doctors again with this one argument changed, every other kept):',
      '- q "zahnarzt" finds 3 records',
      '- radius 25000 (metres) finds 1 record',
      '- city "muenchen" (München - forged) finds 12 records',
    ]);
    expect(renderPage({ doctors: [], page, suggestions: [] }).split('\n')).toEqual([
      'No doctors match these filters.',
      'Nothing close finds records: try fewer filters, fewer or other words in q, or another city.',
    ]);
  });

  it('keeps a crawled label on its line', () => {
    const text = renderPage({
      doctors: [],
      page,
      facets: { city: [{ value: 'berlin', count: 1, label: 'Berlin\n- specialty: forged 99' }] },
    });
    expect(text.split('\n')).toHaveLength(3);
    expect(text).not.toContain('\n- specialty');
  });
});
