import { describe, expect, it } from 'vitest';
import { changesParamsSchema } from '../src/changes/changes-params.js';
import { COUNTRY_CODES_TEXT, listCodes } from '../src/requests/country-codes-text.js';
import { citiesParamsSchema } from '../src/search/city-list.js';
import { SEARCH_FILTERS } from '../src/search/search-filters.js';
import { specialtiesParamsSchema } from '../src/search/specialty-list.js';

describe('dataset codes in descriptions', () => {
  it('lists codes with commas and a final conjunction', () => {
    expect(listCodes([], 'and')).toBe('');
    expect(listCodes(['de'], 'or')).toBe('de');
    expect(listCodes(['de', 'es'], 'and')).toBe('de and es');
    expect(listCodes(['de', 'es', 'pt'], 'or')).toBe('de, es or pt');
  });

  it('derives the accepted, live and empty datasets from the code lists', () => {
    expect(COUNTRY_CODES_TEXT).toEqual({
      accepted: 'de, es, fr, gb, it, mx or pt',
      live: 'de, es, it and pt',
      empty: 'fr, gb and mx',
    });
  });

  // The descriptions are served in the OpenAPI document and the MCP tools' schemas: word for word.
  it('keeps every country description as it was written out by hand', () => {
    expect(SEARCH_FILTERS.country.description).toBe(
      'Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. de, es, it and pt have live data; fr, gb and mx are accepted and return an empty page.',
    );
    expect(citiesParamsSchema.shape.country.description).toBe(
      'Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). fr, gb and mx list no cities.',
    );
    expect(changesParamsSchema.shape.country.description).toBe(
      'Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. The feed lists the records served in this dataset, and those that stopped being served there.',
    );
    expect(specialtiesParamsSchema.shape.country.description).toBe(
      'Optional dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). With it, only the codes of that dataset’s records are listed, each with its count; without it, the whole vocabulary.',
    );
  });
});
