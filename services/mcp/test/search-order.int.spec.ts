import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORT_ORDERS, type DoctorPage } from '@directory/domain';
import { createMcpHarness, type McpHarness } from './support/mcp-harness.js';

/**
 * The API 1.3 search arguments through search_doctors (sort, bbox, count) over the shared test dataset:
 * every answer is compared with the API's to the same request, cursors included.
 */

type ApiProblem = { errors: Array<{ parameter: string; reason: string }> };

describe('MCP search_doctors with sort, bbox and count', () => {
  let harness: McpHarness;
  let client: Client;
  let api: FastifyInstance;
  let secret: string;

  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'search_doctors', arguments: args })) as CallToolResult;
  const apiGet = async (url: string) => api.inject({ url, headers: { authorization: `Bearer ${secret}` } });
  const textOf = (result: CallToolResult) =>
    result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const queryOf = (args: Record<string, unknown>) =>
    Object.entries(args)
      .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
      .join('&');

  /** The tool's page, checked equal to the API's answer to the same request. */
  const pageOf = async (args: Record<string, unknown>) => {
    const result = await call(args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toEqual((await apiGet(`/api/v1/doctors?${queryOf(args)}`)).json());
    return result.structuredContent as DoctorPage & { page: { total?: number; totalExact?: boolean } };
  };

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-search-order');
    ({ secret } = await harness.createKey());
    client = await harness.connect(await harness.startMcp(), secret);
    api = await harness.api();
  });
  afterAll(() => harness.close());

  it('advertises sort as an enum, bbox as text and count as a boolean, each marked API 1.3', async () => {
    const { tools } = await client.listTools();
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
    for (const [args, query] of [
      [{ country: 'de', sort: 'distance' }, 'country=de&sort=distance'],
      [{ country: 'de', sort: 'rating' }, 'country=de&sort=rating'],
      [{ country: 'de', bbox: '1,2,3' }, 'country=de&bbox=1,2,3'],
      [{ country: 'de', count: 'yes' }, 'country=de&count=yes'],
    ] as const) {
      const result = await call(args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const http = await apiGet(`/api/v1/doctors?${query}`);
      expect(http.statusCode).toBe(400);
      const [error] = http.json<ApiProblem>().errors;
      expect(textOf(result)).toContain(`- ${error?.parameter}: ${error?.reason}`);
    }
  });
});
