import { afterAll, describe, expect, it } from 'vitest';
import { createTestSearch } from '@directory/testing';
import { ensureDoctorsIndex, indicesBehindAlias } from '../src/indices.js';

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
