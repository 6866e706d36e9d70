import { describe, expect, it } from 'vitest';
import { DOCTORS_MAPPING, missingProperties } from '../src/mapping.js';

// The mapping the index has always had, spelled out on purpose: changing a field's type changes every
// index and needs a reindex. New fields (a new filter's) may be added; these must stay as they are
// (searchText's word starts and sortName's name starts came with releases and reach an older index with
// its next reindex).
const ESTABLISHED_FIELDS = {
  served: { type: 'boolean' },
  placeId: { type: 'keyword' },
  doctor: { type: 'object', enabled: false },
  country: { type: 'keyword' },
  citySlug: { type: 'keyword' },
  profileSlug: { type: 'keyword' },
  whatsappEligible: { type: 'boolean' },
  verified: { type: 'boolean' },
  sortName: {
    type: 'keyword',
    fields: {
      starts: {
        type: 'text',
        analyzer: 'keyword',
        index_options: 'docs',
        norms: false,
        index_prefixes: { min_chars: 1, max_chars: 19 },
      },
    },
  },
  searchText: { type: 'text', analyzer: 'standard', index_prefixes: { min_chars: 1, max_chars: 4 } },
};

describe('DOCTORS_MAPPING', () => {
  it('is strict: a key outside the search document is refused', () => {
    expect(DOCTORS_MAPPING.dynamic).toBe('strict');
  });

  it.each(Object.entries(ESTABLISHED_FIELDS))('keeps %s exactly as it was', (field, mapping) => {
    expect(DOCTORS_MAPPING.properties?.[field]).toEqual(mapping);
  });
});

describe('missingProperties', () => {
  it("is the wanted fields the index lacks, whatever the index's own mapping of a field both have", () => {
    const existing = { served: { type: 'boolean' }, searchText: { type: 'text' } };
    const wanted = {
      served: { type: 'boolean' },
      searchText: { type: 'text', index_prefixes: { min_chars: 1, max_chars: 4 } },
      updatedAt: { type: 'date' },
    };
    expect(missingProperties(existing, wanted)).toEqual({ updatedAt: { type: 'date' } });
    expect(missingProperties(wanted, wanted)).toEqual({});
  });
});
