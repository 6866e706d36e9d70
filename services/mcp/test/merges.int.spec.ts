import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doctor, PlaceState } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import { createMcpHarness, type McpHarness } from './support/mcp-harness.js';

// get_doctor follows a merged-away id to the record that survives, and says so.

const merged = (id: string, into: string, mergedAt: string): PlaceState => ({
  ...placeState({ id, name: `Praxis ${id}` }),
  mergedInto: into,
  mergedAt,
});

describe('MCP get_doctor and merged records (API 1.4)', () => {
  let harness: McpHarness;
  let client: Client;

  const call = async (doctorId: string) =>
    (await client.callTool({ name: 'get_doctor', arguments: { doctorId } })) as CallToolResult;
  const textOf = (result: CallToolResult) =>
    result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-merges');
    const { secret } = await harness.createKey();
    client = await harness.connect(await harness.startMcp(), secret);
    await harness.storeLive([
      placeState({ id: 'mcp-survivor', name: 'Praxis Survivor' }),
      merged('mcp-merged', 'mcp-middle', '2026-02-01T00:00:00.000Z'),
      merged('mcp-middle', 'mcp-survivor', '2026-02-02T00:00:00.000Z'),
      merged('mcp-loop-a', 'mcp-loop-b', '2026-02-01T00:00:00.000Z'),
      merged('mcp-loop-b', 'mcp-loop-a', '2026-02-01T00:00:00.000Z'),
      merged('mcp-gone', 'mcp-never-served', '2026-02-01T00:00:00.000Z'),
    ]);
  });
  afterAll(() => harness.close());

  it('answers the survivor of a merged-away id (through a chain) and says it followed a merge', async () => {
    const result = await call('mcp-merged');
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const content = result.structuredContent as { doctor: Doctor; merge: Record<string, string> };
    expect(content.doctor.id).toBe('mcp-survivor');
    expect(content.merge).toEqual({
      from: 'mcp-merged',
      into: 'mcp-survivor',
      mergedAt: '2026-02-01T00:00:00.000Z',
    });
    expect(textOf(result)).toContain('Followed a merge: mcp-merged was merged into mcp-survivor');
    expect(textOf(result)).toContain('Praxis Survivor');
  });

  it('follows the profile URL of a merged-away record the same way', async () => {
    const result = await call(`${SITE_ORIGIN}/de/aerzte/de/berlin/mcp-merged`);
    const content = result.structuredContent as { doctor: Doctor; merge: Record<string, string> };
    expect(content.doctor.id, textOf(result)).toBe('mcp-survivor');
    expect(content.merge).toMatchObject({ from: 'mcp-merged', into: 'mcp-survivor' });
  });

  it('answers a served id as before, without merge', async () => {
    const result = await call('mcp-survivor');
    expect(Object.keys(result.structuredContent ?? {})).toEqual(['doctor']);
    expect(textOf(result)).not.toContain('Followed a merge');
  });

  it('answers not found for a loop, and for a survivor that is not served', async () => {
    for (const id of ['mcp-loop-a', 'mcp-loop-b', 'mcp-gone']) {
      const result = await call(id);
      expect(result.isError, id).toBe(true);
      expect(textOf(result)).toMatch(/no current published record/i);
    }
  });
});
