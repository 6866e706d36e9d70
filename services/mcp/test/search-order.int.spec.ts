import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORT_ORDERS } from '@directory/domain';
import {
  expectRefusedLikeApi,
  openToolSession,
  searchLikeApi,
  type ToolSession,
} from './support/tool-session.js';

/**
 * The API 1.3 search arguments through search_doctors (sort, bbox, count) over the shared test dataset:
 * every answer is compared with the API's to the same request, cursors included.
 */

type CountedPage = Awaited<ReturnType<typeof searchLikeApi>> & {
  page: { total?: number; totalExact?: boolean };
};

describe('MCP search_doctors with sort, bbox and count', () => {
  let session: ToolSession;
  const pageOf = async (args: Record<string, unknown>) => (await searchLikeApi(session, args)) as CountedPage;

  beforeAll(async () => {
    session = await openToolSession('mcp-search-order');
  });
  afterAll(() => session.close());

  it('advertises sort as an enum, bbox as text and count as a boolean, each marked API 1.3', async () => {
    const { tools } = await session.client.listTools();
    const search = tools.find((tool) => tool.name === 'search_doctors');
    const properties = (search?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(properties.sort?.enum).toEqual([...SORT_ORDERS]);
    expect(properties.bbox?.type).toBe('string');
    expect(properties.count?.type).toBe('boolean');
    for (const name of ['sort', 'bbox', 'count'])
      expect(properties[name]?.description, name).toMatch(/^API 1\.3\./);
  });

  it('ranks by relevance with a typo, counts, and pages with the API cursors', async () => {
    const first = await pageOf({ country: 'de', q: 'mueler', sort: 'relevance', count: true, limit: 1 });
    expect(first.page.total).toBeGreaterThanOrEqual(1);
    expect(first.page.totalExact).toBe(true);
    if (first.page.nextCursor !== null) {
      await pageOf({
        country: 'de',
        q: 'mueler',
        sort: 'relevance',
        limit: 1,
        cursor: first.page.nextCursor,
      });
    }
    const byName = await pageOf({ country: 'de', sort: 'name', limit: 3 });
    expect(byName).toEqual(await pageOf({ country: 'de', limit: 3 }));
  });

  it('filters by a viewport', async () => {
    const everywhere = await pageOf({ country: 'de', bbox: '-180,-90,180,90', limit: 100 });
    const all = await pageOf({ country: 'de', limit: 100 });
    const located = all.doctors.filter((doctor) => doctor.location !== null).map((doctor) => doctor.id);
    expect(everywhere.doctors.map((doctor) => doctor.id)).toEqual(located);
    expect((await pageOf({ country: 'de', bbox: '0,0,1,1' })).doctors).toEqual([]);
  });

  it('refuses bad values with the reasons the API gives', async () => {
    await expectRefusedLikeApi(session, [
      [{ country: 'de', sort: 'distance' }, 'country=de&sort=distance'],
      [{ country: 'de', sort: 'rating' }, 'country=de&sort=rating'],
      [{ country: 'de', bbox: '1,2,3' }, 'country=de&bbox=1,2,3'],
      [{ country: 'de', count: 'yes' }, 'country=de&count=yes'],
    ]);
  });
});
