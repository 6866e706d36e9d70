import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SITE_ORIGIN, expectGolden } from '@directory/testing';
import { createMcpHarness, type McpHarness } from './support/mcp-harness.js';

/**
 * Golden tool results: a fixed list of search_doctors / get_doctor calls over the harness's fixed
 * dataset, cursor secret and site origin, compared with fixtures/public-responses.json (structured
 * content, text and error flag). The referee for refactorings that must not change what clients see.
 * Record it again, only for a meant public change, with
 * `UPDATE_GOLDEN=1 npx vitest run services/mcp/test/public-responses`.
 */

const FIXTURE = new URL('./fixtures/public-responses.json', import.meta.url);

type Recorded = { tool: string; arguments: Record<string, unknown>; result: unknown };

const SEARCHES: Array<Record<string, unknown>> = [
  { country: 'de' },
  { country: 'DE', limit: 5 },
  { country: 'es' },
  { country: 'fr' },
  { country: 'de', city: 'hamburg' },
  { country: 'de', city: 'muenchen', limit: 100 },
  { country: 'de', q: 'müller' },
  { country: 'de', q: '  Praxis Num ', limit: 4 },
  { country: 'de', q: '   ' },
  { country: 'de', q: null, city: null, whatsapp: null, verified: null, limit: null, cursor: null },
  { country: 'de', whatsapp: true, limit: 3 },
  { country: 'de', whatsapp: false, limit: 3 },
  { country: 'de', verified: true, limit: 3 },
  { country: 'de', verified: false, limit: 3 },
  { country: 'de', city: 'berlin', whatsapp: true, verified: true, q: 'praxis', limit: 3 },
  { country: 'de', limit: 1 },
  // refused
  {},
  { country: 'xx' },
  { country: 'de', limit: 0 },
  { country: 'de', limit: '5' },
  { country: 'de', whatsapp: 'true' },
  { country: 'de', verified: 1 },
  { country: 'de', city: 'Berlin' },
  { country: 'de', q: 'a'.repeat(101) },
  { country: 'de', q: 7 },
  { country: 'de', cursor: '' },
  { country: 'de', cursor: 'not-a-cursor' },
  { country: 'de', Country: 'de', extra: 1 },
  { country: 'de', api_key: 'abc', dk_live_abc: 1 },
];

const PAGED: Array<Record<string, unknown>> = [
  { country: 'de', limit: 15 },
  { country: 'de', city: 'berlin', whatsapp: true, q: 'praxis', limit: 4 },
];

const GETS: Array<Record<string, unknown>> = [
  { doctorId: 'de-mueller' },
  { doctorId: 'es-sanchez' },
  { doctorId: 'de-suppressed' },
  { doctorId: 'no-such-id' },
  { doctorId: 'bad id' },
  { doctorId: `${SITE_ORIGIN}/en/doctors/de/berlin/praxis-dr-mueller` },
  { doctorId: `${SITE_ORIGIN}/es/medicos/de/berlin/praxis-dr-mueller` },
  { doctorId: `${SITE_ORIGIN}/de/aerzte/de/berlin/no-such-profile` },
  { doctorId: 'https://evil.example/de/aerzte/de/berlin/praxis-dr-mueller' },
  { doctorId: 42 },
  { id: 'de-mueller' },
];

describe('MCP tool results stay identical (golden results)', () => {
  let harness: McpHarness;
  let client: Client;

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-golden');
    const { secret } = await harness.createKey();
    client = await harness.connect(await harness.startMcp(), secret);
  });
  afterAll(() => harness.close());

  async function record(tool: string, args: Record<string, unknown>): Promise<Recorded> {
    const result = await client.callTool({ name: tool, arguments: args });
    return { tool, arguments: args, result };
  }

  const nextCursorOf = (recorded: Recorded): string | null =>
    (recorded.result as { structuredContent?: { page?: { nextCursor?: string | null } } }).structuredContent
      ?.page?.nextCursor ?? null;

  async function recordAll(): Promise<Recorded[]> {
    const all: Recorded[] = [];
    for (const args of SEARCHES) all.push(await record('search_doctors', args));
    const firstCursors: string[] = [];
    for (const args of PAGED) {
      let cursor: string | null = null;
      for (let guard = 0; guard < 100; guard += 1) {
        const page = await record('search_doctors', cursor === null ? args : { ...args, cursor });
        all.push(page);
        cursor = nextCursorOf(page);
        if (cursor === null) break;
        if (firstCursors.length < PAGED.indexOf(args) + 1) firstCursors.push(cursor);
      }
    }
    const [plain = 'missing', combined = 'missing'] = firstCursors;
    all.push(await record('search_doctors', { country: 'de', limit: 15, cursor: combined }));
    all.push(await record('search_doctors', { country: 'de', q: 'praxis', limit: 15, cursor: plain }));
    all.push(
      await record('search_doctors', {
        country: 'de',
        city: 'berlin',
        whatsapp: false,
        q: 'PRAXIS',
        limit: 4,
        cursor: combined,
      }),
    );
    for (const args of GETS) all.push(await record('get_doctor', args));
    return all;
  }

  it('answers every call exactly as recorded', async () => {
    await expectGolden(FIXTURE, await recordAll(), (entry) => JSON.stringify(entry.arguments));
  });
});
