import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doctor, DoctorPage } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createMcpHarness, type McpHarness } from './support/mcp-harness.js';

/**
 * The MCP tools read the dataset of the key's mode, as the API does: a sandbox key's tools see sandbox
 * records only, and a live key's never one of them. The live dataset is the shared test dataset; the
 * sandbox holds a record under a live id (`de-mueller`) with another name, and one of its own.
 */
describe('MCP tools with a sandbox key and a live key', () => {
  let harness: McpHarness;
  const clients: Record<'live' | 'test', Client | undefined> = { live: undefined, test: undefined };

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-sandbox');
    await harness.indexSandbox([
      placeState({ id: 'de-mueller', name: 'Sandkasten Praxis Müller', profileSlug: 'praxis-dr-mueller' }),
      placeState({ id: 'de-sandbox-only', name: 'Sandkasten Praxis Eins' }),
    ]);
    const url = await harness.startMcp();
    clients.live = await harness.connect(
      url,
      (await harness.createKey('mcp-sandbox@example.com', 'live')).secret,
    );
    clients.test = await harness.connect(
      url,
      (await harness.createKey('mcp-sandbox@example.com', 'test')).secret,
    );
  });
  afterAll(() => harness.close());

  const call = async (mode: 'live' | 'test', name: string, args: Record<string, unknown>) => {
    const client = clients[mode];
    if (client === undefined) throw new Error('no client');
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  };
  const searchIds = async (mode: 'live' | 'test', args: Record<string, unknown>) => {
    const result = await call(mode, 'search_doctors', { country: 'de', limit: 100, ...args });
    expect(result.isError ?? false).toBe(false);
    return (result.structuredContent as DoctorPage).doctors.map((doctor) => doctor.id).sort();
  };
  const fetched = async (mode: 'live' | 'test', doctorId: string) => {
    const result = await call(mode, 'get_doctor', { doctorId });
    return result.isError === true ? null : (result.structuredContent as { doctor: Doctor }).doctor;
  };

  it('searches only the dataset of the key', async () => {
    expect(await searchIds('test', {})).toEqual(['de-mueller', 'de-sandbox-only']);
    const live = await searchIds('live', {});
    expect(live).toContain('de-mueller');
    expect(live).not.toContain('de-sandbox-only');
    expect(await searchIds('live', { q: 'Sandkasten' })).toEqual([]);
    expect(await searchIds('test', { q: 'Schmidt' })).toEqual([]);
  });

  it("fetches a record from the key's dataset only", async () => {
    expect((await fetched('test', 'de-mueller'))?.name).toBe('Sandkasten Praxis Müller');
    expect((await fetched('live', 'de-mueller'))?.name).toBe('Praxis Dr. Müller');
    expect(await fetched('live', 'de-sandbox-only')).toBeNull();
    expect(await fetched('test', 'de-schmidt')).toBeNull();
  });
});
