import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorPage } from '@directory/domain';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  indexPlaces,
  placeState,
  startProcess,
  type RunningProcess,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
  freePort,
} from '@directory/testing';

// `npm run mcp` as a user starts it, driven by the SDK's own client over HTTP.
describe('npm run mcp', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let search: TestSearch;
  let mcp: RunningProcess;
  let url: URL;

  beforeAll(async () => {
    database = await createTestDatabase('mcp-e2e');
    redis = createTestRedis('mcp-e2e');
    search = createTestSearch('mcp-e2e');
    const alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias);
    await indexPlaces(search.client, alias, [
      placeState({ id: 'pt-a', name: 'Clínica A', country: 'pt', citySlug: 'lisboa' }),
      placeState({ id: 'pt-b', name: 'Clínica B', country: 'pt', citySlug: 'lisboa' }),
      placeState({ id: 'pt-c', name: 'Clínica C', country: 'pt', citySlug: 'porto' }),
    ]);
    const port = await freePort();
    mcp = startProcess('services/mcp/src/server.ts', [], {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: alias,
      HOST: '127.0.0.1',
      MCP_PORT: String(port),
      LOG_LEVEL: 'info',
    });
    await mcp.waitForOutput(/MCP endpoint at/);
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });

  afterAll(async () => {
    await mcp.stop('SIGKILL');
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  it('serves both tools to an SDK client with a Bearer key, and closes gracefully on SIGTERM', async () => {
    const account = await ensureAccount(database.db, 'e2e-mcp@example.com');
    const { secret } = await createApiKey(database.db, { accountId: account.id, name: 'e2e' });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${secret}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_doctor', 'search_doctors']);

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const result = (await client.callTool({
        name: 'search_doctors',
        arguments: { country: 'pt', limit: 2, cursor },
      })) as CallToolResult;
      const page = result.structuredContent as DoctorPage;
      ids.push(...page.doctors.map((doctor) => doctor.id));
      cursor = page.page.nextCursor;
    } while (cursor !== null);
    expect(ids).toEqual(['pt-a', 'pt-b', 'pt-c']);

    const got = (await client.callTool({
      name: 'get_doctor',
      arguments: { doctorId: 'pt-c' },
    })) as CallToolResult;
    expect((got.structuredContent as { doctor: { id: string } }).doctor.id).toBe('pt-c');
    await client.close();

    expect(mcp.output()).not.toContain(secret.slice(8, 30));
    expect(await mcp.stop('SIGTERM')).toBe(0);
  });
});
