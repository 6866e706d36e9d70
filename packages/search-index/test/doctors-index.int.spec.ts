import { afterAll, describe, expect, it } from 'vitest';
import { buildSuggestDoctorsRequests } from '@directory/domain';
import { createTestSearch } from '@directory/testing';
import { aliasSearchRequest, isIndexNotFound, multiSearchAlias } from '../src/alias-reads.js';
import { ensureDoctorsIndex, indicesBehindAlias } from '../src/indices.js';
import { DOCTORS_MAPPING } from '../src/mapping.js';

describe('doctors index on the local Elasticsearch', () => {
  const search = createTestSearch('doctors-index');
  const alias = `${search.prefix}_doctors`;
  afterAll(() => search.cleanup());

  it('creates one index behind the alias, idempotently, even when raced', async () => {
    const [first, second] = await Promise.all([
      ensureDoctorsIndex(search.client, alias),
      ensureDoctorsIndex(search.client, alias),
    ]);
    expect(first).toBe(second);
    expect(await ensureDoctorsIndex(search.client, alias)).toBe(first);
    expect(await indicesBehindAlias(search.client, alias)).toEqual([first]);
    // Kept in name order, then id: name-sorted requests stop once they hold their page.
    const settings = await search.client.indices.getSettings({ index: first });
    expect(settings[first]?.settings?.index?.sort).toEqual({
      field: ['sortName', 'placeId'],
      order: ['asc', 'asc'],
    });
  });

  it('indexes a document through the official client and finds it by folded text', async () => {
    await ensureDoctorsIndex(search.client, alias);
    await search.client.index({
      index: alias,
      id: 'place-1',
      refresh: true,
      document: {
        served: true,
        placeId: 'place-1',
        doctor: { id: 'place-1', name: 'Praxis Müller' },
        country: 'de',
        citySlug: 'berlin',
        profileSlug: 'praxis-muller',
        whatsappEligible: true,
        verified: false,
        sortName: 'praxis muller',
        searchText: 'praxis muller berlin',
      },
    });
    const response = await search.client.search<{ doctor: { name: string } }>({
      index: alias,
      query: { match_bool_prefix: { searchText: { query: 'mull', operator: 'and' } } },
    });
    expect(response.hits.hits.map((hit) => hit._source?.doctor.name)).toEqual(['Praxis Müller']);
  });

  it('answers several searches in one round trip, each failing alone as it would have on its own', async () => {
    await ensureDoctorsIndex(search.client, alias);
    await search.client.index({
      index: alias,
      id: 'place-m',
      refresh: true,
      document: { served: true, placeId: 'place-m', country: 'at', sortName: 'praxis m' },
    });
    const inAustria = { term: { country: 'at' } };
    const outcomes = await multiSearchAlias(search.client, [
      aliasSearchRequest(alias, { query: inAustria, _source: ['placeId'] }),
      aliasSearchRequest(`${search.prefix}_missing`, { size: 1 }),
      // Parses, and fails on the shard: an unfinished regular expression.
      aliasSearchRequest(alias, { query: { regexp: { sortName: '[' } } }),
      // A parameter of the URL in a single search, of the header line in a multi-search.
      aliasSearchRequest(alias, { query: inAustria, size: 0, preference: 'some-session' }),
      aliasSearchRequest(alias, { query: inAustria, size: 0, track_total_hits: true }),
    ]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, false, true, true]);
    const [found, missing, malformed, preferred, counted] = outcomes;
    expect(found?.ok && found.response.hits.hits.map((hit) => hit._source)).toEqual([{ placeId: 'place-m' }]);
    // The errors a search alone would have thrown: a missing index reads as one, a bad query is a 400.
    expect(missing?.ok === false && isIndexNotFound(missing.error)).toBe(true);
    expect(malformed?.ok === false && isIndexNotFound(malformed.error)).toBe(false);
    expect(malformed?.ok === false && (malformed.error as { statusCode?: number }).statusCode).toBe(400);
    expect(preferred?.ok && preferred.response.hits.total).toEqual({ value: 1, relation: 'eq' });
    expect(counted?.ok && counted.response.hits.total).toEqual({ value: 1, relation: 'eq' });
  });

  it("gives an earlier release's index the fields this release added, and keeps the fields it indexes its own way", async () => {
    const older = `${search.prefix}_older`;
    // The mapping before API 1.3's provenance (no updatedAt), before searchText's word starts and before
    // sortName's name starts.
    const { updatedAt: _added, ...earlierProperties } = DOCTORS_MAPPING.properties ?? {};
    earlierProperties.searchText = { type: 'text', analyzer: 'standard' };
    earlierProperties.sortName = { type: 'keyword' };
    await search.client.indices.create({
      index: `${older}__initial`,
      mappings: { dynamic: 'strict', properties: earlierProperties },
      aliases: { [older]: {} },
    });
    const document = {
      placeId: 'place-3',
      served: true,
      country: 'de',
      updatedAt: '2026-11-01T00:00:00.000Z',
      sortName: 'praxis muller',
      searchText: 'praxis muller berlin',
    };
    await expect(search.client.index({ index: older, id: 'place-3', document })).rejects.toThrow(
      /strict_dynamic_mapping_exception/,
    );
    expect(await ensureDoctorsIndex(search.client, older)).toBe(`${older}__initial`);
    await search.client.index({ index: older, id: 'place-3', document, refresh: true });
    const found = await search.client.count({
      index: older,
      query: {
        bool: {
          filter: [
            { range: { updatedAt: { gte: '2026-10-01T00:00:00Z' } } },
            { match_bool_prefix: { searchText: { query: 'praxis m', operator: 'and' } } },
          ],
        },
      },
    });
    expect(found.count).toBe(1);
    // The typeahead still finds the record there, among the other matches: the name starts are not
    // indexed until a reindex.
    const doctors = buildSuggestDoctorsRequests({ country: 'de', q: 'Praxis m', limit: 8, lang: 'en' });
    const ids = async (body: object) =>
      (await search.client.search({ index: older, ...body })).hits.hits.map((hit) => hit._id);
    expect(await ids(doctors.starting)).toEqual([]);
    expect(await ids(doctors.others)).toEqual(['place-3']);
    const mapping = await search.client.indices.getMapping({ index: `${older}__initial` });
    expect(mapping[`${older}__initial`]?.mappings.properties?.searchText).toEqual({
      type: 'text',
      analyzer: 'standard',
    });
  });

  it('rejects a field outside the mapping (dynamic: strict)', async () => {
    await ensureDoctorsIndex(search.client, alias);
    await expect(
      search.client.index({
        index: alias,
        id: 'place-2',
        document: { placeId: 'place-2', crawlId: 'internal' },
      }),
    ).rejects.toThrow(/strict_dynamic_mapping_exception/);
  });
});
