import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_CODES, KNOWN_PARAMETERS, type Doctor, type DoctorPage } from '@directory/domain';
import { HIDDEN_IDS, SITE_ORIGIN } from '@directory/testing';
import { createMcpHarness, type McpHarness } from './support/mcp-harness.js';

type ApiProblem = { errors: Array<{ parameter: string; reason: string }> };

describe('MCP tools search_doctors, get_doctor and list_specialties (same query code as the API)', () => {
  let harness: McpHarness;
  let client: Client;
  let api: FastifyInstance;
  let secret: string;

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const apiGet = async (url: string) => api.inject({ url, headers: { authorization: `Bearer ${secret}` } });
  // The tool asks for suggestions unless told not to: its answers compare with the API's asked alike.
  const apiSearch = async (url: string) => apiGet(`${url}&suggestions=true`);
  const textOf = (result: CallToolResult) =>
    result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  beforeAll(async () => {
    harness = await createMcpHarness('mcp-tools');
    ({ secret } = await harness.createKey());
    client = await harness.connect(await harness.startMcp(), secret);
    api = await harness.api();
  });
  afterAll(() => harness.close());

  it('lists exactly the three tools, read-only, with input and output schemas and the disclaimers', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_doctor',
      'list_specialties',
      'search_doctors',
    ]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        openWorldHint: false,
        idempotentHint: true,
      });
      // The WhatsApp disclaimer goes with every tool that returns records.
      if (tool.name !== 'list_specialties') expect(tool.description).toMatch(/not consent/i);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
    const search = tools.find((tool) => tool.name === 'search_doctors');
    expect(search?.description).toMatch(/cursor/);
    expect(search?.inputSchema.required).toEqual(['country']);
    // Exactly the search parameters (the filter table's, pinned in the domain's filter-table spec).
    expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual([...KNOWN_PARAMETERS].sort());
    expect(KNOWN_PARAMETERS).toEqual(
      expect.arrayContaining(['country', 'city', 'q', 'whatsapp', 'verified', 'limit', 'cursor']),
    );
    expect((search?.inputSchema.properties?.country as { enum?: string[] }).enum).toEqual([...COUNTRY_CODES]);
    expect(Object.keys(search?.outputSchema?.properties ?? {}).sort()).toEqual([
      'doctors',
      'facets',
      'page',
      'suggestions',
    ]);
    const get = tools.find((tool) => tool.name === 'get_doctor');
    expect(get?.inputSchema.required).toEqual(['doctorId']);
    expect(Object.keys(get?.outputSchema?.properties ?? {})).toEqual(['doctor', 'merge']);
    const specialties = tools.find((tool) => tool.name === 'list_specialties');
    expect(specialties?.description).toMatch(/specialty argument of search_doctors/);
    expect(Object.keys(specialties?.inputSchema.properties ?? {})).toEqual(['country', 'lang']);
    expect(specialties?.inputSchema.required).toBeUndefined();
    expect(Object.keys(specialties?.outputSchema?.properties ?? {})).toEqual(['specialties']);
    expect(search?.description).toMatch(/list_specialties/);
  });

  it('lists specialties exactly as GET /api/v1/specialties does, and searches by their codes', async () => {
    for (const [args, query] of [
      [{}, ''],
      [{ lang: 'de', country: 'de' }, 'lang=de&country=de'],
      [{ country: 'ES', lang: null }, 'country=ES'],
      [{ country: 'fr' }, 'country=fr'],
    ] as const) {
      const result = await call('list_specialties', args);
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(result.structuredContent).toEqual((await apiGet(`/api/v1/specialties?${query}`)).json());
    }
    const german = await call('list_specialties', { country: 'de', lang: 'de' });
    expect(german.structuredContent).toEqual({
      specialties: [
        { code: 'dentistry', label: 'Zahnmedizin', count: 1 },
        { code: 'general-practice', label: 'Allgemeinmedizin', count: 1 },
        { code: 'sports-medicine', label: 'Sportmedizin', count: 1 },
      ],
    });
    expect(textOf(german)).toContain('- dentistry: Zahnmedizin (1 record)');
    const dentists = await call('search_doctors', { country: 'de', specialty: 'dentistry' });
    expect((dentists.structuredContent as DoctorPage).doctors.map((doctor) => doctor.id)).toEqual([
      'de-schmidt',
    ]);
    expect(dentists.structuredContent).toEqual(
      (await apiSearch('/api/v1/doctors?country=de&specialty=dentistry')).json(),
    );
  });

  it('answers bad list_specialties and specialty arguments with tool errors carrying the API reasons', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['list_specialties', { lang: 'xx', country: 'xx' }, '/api/v1/specialties?lang=xx&country=xx'],
      ['list_specialties', { colour: 'blue' }, '/api/v1/specialties?colour=blue'],
      [
        'search_doctors',
        { country: 'de', specialty: 'dentist' },
        '/api/v1/doctors?country=de&specialty=dentist',
      ],
    ];
    for (const [tool, args, url] of cases) {
      const result = await call(tool, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const http = await apiGet(url);
      expect(http.statusCode).toBe(400);
      for (const { parameter, reason } of http.json<ApiProblem>().errors) {
        expect(textOf(result)).toContain(`- ${parameter}: ${reason}`);
      }
    }
  });

  it('pages through a whole country with cursors: every served record exactly once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await call('search_doctors', { country: 'DE', limit: 7, ...(cursor ? { cursor } : {}) });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const page = result.structuredContent as DoctorPage;
      expect(page.page.count).toBe(page.doctors.length);
      seen.push(...page.doctors.map((doctor) => doctor.id));
      cursor = page.page.nextCursor ?? undefined;
      expect(page.page.hasMore).toBe(cursor !== undefined);
      if (cursor !== undefined) expect(textOf(result)).toContain(cursor);
      pages += 1;
    } while (cursor !== undefined && pages < 50);
    expect(seen).toHaveLength(harness.servedGermanIds.length);
    expect(new Set(seen)).toEqual(new Set(harness.servedGermanIds));
    for (const hidden of HIDDEN_IDS) expect(seen).not.toContain(hidden);
    expect(pages).toBe(Math.ceil(harness.servedGermanIds.length / 7));
  });

  it('returns exactly what GET /api/v1/doctors returns for the same parameters (first and next pages)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ country: 'de' }, 'country=de'],
      [
        { country: 'de', city: 'berlin', whatsapp: true, limit: 5 },
        'country=de&city=berlin&whatsapp=true&limit=5',
      ],
      [{ country: 'de', q: 'müller', verified: true }, 'country=de&q=m%C3%BCller&verified=true'],
      [{ country: 'es', q: 'dental' }, 'country=es&q=dental'],
      [{ country: 'fr' }, 'country=fr'],
    ];
    for (const [args, query] of cases) {
      const tool = await call('search_doctors', args);
      const http = await apiSearch(`/api/v1/doctors?${query}`);
      expect(http.statusCode).toBe(200);
      expect(tool.structuredContent).toEqual(http.json());
    }
    const first = (await call('search_doctors', { country: 'de', limit: 10 }))
      .structuredContent as DoctorPage;
    const cursor = first.page.nextCursor ?? '';
    const toolNext = await call('search_doctors', { country: 'de', limit: 10, cursor });
    const httpNext = await apiSearch(
      `/api/v1/doctors?country=de&limit=10&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(toolNext.structuredContent).toEqual(httpNext.json());
    // A cursor from one transport works on the other: one query service, one secret.
    const httpFirst = (await apiSearch('/api/v1/doctors?country=de&limit=10')).json<DoctorPage>();
    expect(httpFirst.page.nextCursor).toBe(cursor);
  });

  it('fetches a record by id and by translated profile URLs, identical to GET /api/v1/doctors/{id}', async () => {
    const byId = await call('get_doctor', { doctorId: 'de-mueller' });
    expect(byId.isError ?? false).toBe(false);
    const doctor = (byId.structuredContent as { doctor: Doctor }).doctor;
    expect(doctor.id).toBe('de-mueller');
    expect(textOf(byId)).toContain('Praxis Dr. Müller');
    expect(textOf(byId)).toMatch(/not consent/);
    expect(byId.structuredContent).toEqual((await apiGet('/api/v1/doctors/de-mueller')).json());

    for (const path of [
      '/de/aerzte/de/berlin/praxis-dr-mueller',
      '/es/medicos/de/berlin/praxis-dr-mueller',
      '/en/doctors/de/berlin/praxis-dr-mueller',
    ]) {
      const url = `${SITE_ORIGIN}${path}`;
      const byUrl = await call('get_doctor', { doctorId: url });
      expect(byUrl.isError ?? false, textOf(byUrl)).toBe(false);
      expect(byUrl.structuredContent).toEqual({ doctor });
      expect(byUrl.structuredContent).toEqual(
        (await apiGet(`/api/v1/doctors/${encodeURIComponent(url)}`)).json(),
      );
    }
  });

  it('answers bad search arguments with tool errors carrying the API reasons', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ country: 'xx' }, 'country=xx'],
      [{}, ''],
      [{ country: 'de', city: 'Berlin', limit: 500 }, 'country=de&city=Berlin&limit=500'],
      [{ country: 'de', cursor: 'not-a-cursor' }, 'country=de&cursor=not-a-cursor'],
      [{ country: 'de', colour: 'blue' }, 'country=de&colour=blue'],
    ];
    for (const [args, query] of cases) {
      const result = await call('search_doctors', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const http = await apiGet(`/api/v1/doctors?${query}`);
      expect(http.statusCode).toBe(400);
      for (const { parameter, reason } of http.json<ApiProblem>().errors) {
        expect(textOf(result)).toContain(`- ${parameter}: ${reason}`);
      }
    }
    // A cursor issued for other filters is refused with the API's reason too.
    const page = (await call('search_doctors', { country: 'de', limit: 2 })).structuredContent as DoctorPage;
    const foreign = await call('search_doctors', {
      country: 'de',
      limit: 2,
      verified: true,
      cursor: page.page.nextCursor,
    });
    expect(foreign.isError).toBe(true);
    const http = await apiGet(
      `/api/v1/doctors?country=de&limit=2&verified=true&cursor=${encodeURIComponent(page.page.nextCursor ?? '')}`,
    );
    const [cursorError] = http.json<ApiProblem>().errors;
    expect(textOf(foreign)).toContain(`- cursor: ${cursorError?.reason}`);
  });

  it('counts facets exactly as GET /api/v1/doctors does, renders them in the text, refuses bad ones alike', async () => {
    const args = {
      country: 'de',
      specialty: 'dentistry',
      facets: 'specialty,verified,insurance',
      facetLimit: 3,
    };
    const result = await call('search_doctors', args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const page = result.structuredContent as DoctorPage;
    expect(page).toEqual(
      (
        await apiSearch(
          '/api/v1/doctors?country=de&specialty=dentistry&facets=specialty,verified,insurance&facetLimit=3',
        )
      ).json(),
    );
    expect(Object.keys(page.facets ?? {})).toEqual(['specialty', 'verified', 'insurance']);
    expect(page.facets?.specialty?.length).toBeGreaterThan(1); // its own filter left out: other specialties too
    expect(page.facets?.specialty?.length).toBeLessThanOrEqual(3);
    const dentistry = page.facets?.specialty?.find(({ value }) => value === 'dentistry');
    expect(dentistry?.label).toBe('Dentistry');
    expect(textOf(result)).toContain(`- specialty: `);
    expect(textOf(result)).toContain(`dentistry "Dentistry" ${dentistry?.count}`);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ country: 'de', facets: 'city,nope' }, 'country=de&facets=city,nope'],
      [{ country: 'de', facets: 'city', facetLimit: 0 }, 'country=de&facets=city&facetLimit=0'],
      [{ country: 'de', facetLimit: 5 }, 'country=de&facetLimit=5'],
    ];
    for (const [bad, query] of cases) {
      const refused = await call('search_doctors', bad);
      expect(refused.isError, JSON.stringify(bad)).toBe(true);
      const http = await apiGet(`/api/v1/doctors?${query}`);
      expect(http.statusCode).toBe(400);
      for (const { parameter, reason } of http.json<ApiProblem>().errors) {
        expect(textOf(refused)).toContain(`- ${parameter}: ${reason}`);
      }
    }
  });

  it('filters by opening hours through the same table (openAt, openNow), as the API does', async () => {
    // Every German record of the dataset opens Montag 08:00–12:00; 23 November 2026 is a Monday.
    const monday = async (time: string) => {
      const args = { country: 'de', limit: 100, openAt: `2026-11-23T${time}+01:00` };
      const tool = await call('search_doctors', args);
      expect(tool.isError ?? false, textOf(tool)).toBe(false);
      const http = await apiSearch(
        `/api/v1/doctors?country=de&limit=100&openAt=${encodeURIComponent(args.openAt)}`,
      );
      expect(tool.structuredContent).toEqual(http.json());
      return (tool.structuredContent as DoctorPage).doctors.map((doctor) => doctor.id);
    };
    expect(new Set(await monday('09:30:00'))).toEqual(new Set(harness.servedGermanIds));
    expect(await monday('12:00:00')).toEqual([]);
    const openNow = await call('search_doctors', { country: 'de', openNow: true, limit: 1 });
    expect(openNow.isError ?? false, textOf(openNow)).toBe(false);
    for (const [args, query] of [
      [{ country: 'de', openNow: false }, 'country=de&openNow=false'],
      [{ country: 'de', openAt: '2026-11-23T09:30:00' }, 'country=de&openAt=2026-11-23T09%3A30%3A00'],
    ] as const) {
      const result = await call('search_doctors', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const [error] = (await apiGet(`/api/v1/doctors?${query}`)).json<ApiProblem>().errors;
      expect(textOf(result)).toContain(`- ${error?.parameter}: ${error?.reason}`);
    }
  });

  it('treats null as an absent argument (AI clients often send null for optional ones)', async () => {
    const result = await call('search_doctors', {
      country: 'it',
      city: null,
      q: null,
      limit: null,
      cursor: null,
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toEqual((await apiSearch('/api/v1/doctors?country=it')).json());
  });

  it('answers bad or unknown doctor ids with tool errors (foreign host never fetched)', async () => {
    const invalid = [
      'https://evil.example/de/aerzte/de/berlin/praxis-dr-mueller',
      `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-dr-mueller?x=1`,
      'not an id!',
    ];
    for (const doctorId of invalid) {
      const result = await call('get_doctor', { doctorId });
      expect(result.isError, doctorId).toBe(true);
      const http = await apiGet(`/api/v1/doctors/${encodeURIComponent(doctorId)}`);
      expect(http.statusCode).toBe(400);
      const [error] = http.json<ApiProblem>().errors;
      expect(textOf(result)).toContain(`- doctorId: ${error?.reason}`);
    }
    for (const doctorId of [
      'de-unknown',
      ...HIDDEN_IDS,
      `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-geschlossen`,
    ]) {
      const result = await call('get_doctor', { doctorId });
      expect(result.isError, doctorId).toBe(true);
      expect(textOf(result)).toMatch(/no current published record/i);
      expect((await apiGet(`/api/v1/doctors/${encodeURIComponent(doctorId)}`)).statusCode).toBe(404);
    }
    const missing = await call('get_doctor', { id: 'de-mueller' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('- id: is not a known parameter');
    expect(textOf(missing)).toContain('- doctorId: is required');
    expect(textOf(await call('get_doctor', { doctorId: 42 }))).toContain('- doctorId: must be a string');
  });

  it('reports an Elasticsearch outage as a tool error, without internals', async () => {
    const down = await harness.connect(
      await harness.startMcp({ elasticsearchUrl: 'http://127.0.0.1:9' }),
      secret,
    );
    for (const [name, args] of [
      ['search_doctors', { country: 'de' }],
      ['get_doctor', { doctorId: 'de-mueller' }],
      ['list_specialties', { country: 'de' }],
    ] as const) {
      const result = (await down.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Search is temporarily unavailable; retry later.');
    }
  });
});
