import { describe, expect, it } from 'vitest';
import { DOCTORS_MAPPING } from '../src/mapping.js';

// The mapping the index has always had, spelled out on purpose: changing a field's type changes every
// index and needs a reindex. New fields (a new filter's) may be added; these must stay as they are.
const ESTABLISHED_FIELDS = {
  served: { type: 'boolean' },
  placeId: { type: 'keyword' },
  doctor: { type: 'object', enabled: false },
  country: { type: 'keyword' },
  citySlug: { type: 'keyword' },
  profileSlug: { type: 'keyword' },
  whatsappEligible: { type: 'boolean' },
  verified: { type: 'boolean' },
  sortName: { type: 'keyword' },
  searchText: { type: 'text', analyzer: 'standard' },
};

describe('DOCTORS_MAPPING', () => {
  it('is strict: a key outside the search document is refused', () => {
    expect(DOCTORS_MAPPING.dynamic).toBe('strict');
  });

  it.each(Object.entries(ESTABLISHED_FIELDS))('keeps %s exactly as it was', (field, mapping) => {
    expect(DOCTORS_MAPPING.properties?.[field]).toEqual(mapping);
  });
});
