import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSURANCE_CODES, LANGUAGE_CODES, type DoctorPage } from '@directory/domain';
import {
  expectRefusedLikeApi,
  openToolSession,
  searchLikeApi,
  textOf,
  type ToolSession,
} from './support/tool-session.js';

/**
 * The API 1.3 patient attribute filters through search_doctors, over the shared test dataset (four
 * named places carry attributes, the crowd none): the same filter table and query code as the API, so
 * every call is compared with the API's answer.
 */

describe('MCP search_doctors with the API 1.3 patient attributes', () => {
  let session: ToolSession;

  /** The ids the tool finds (every page), checked equal to the API's answer. */
  const ids = async (args: Record<string, unknown>) =>
    (await searchLikeApi(session, { ...args, limit: 100 })).doctors.map((doctor) => doctor.id).sort();

  beforeAll(async () => {
    session = await openToolSession('mcp-patient-attributes');
  });
  afterAll(() => session.close());

  it('advertises the four in the input schema: the codes as enums, the others as booleans', async () => {
    const { tools } = await session.client.listTools();
    const search = tools.find((tool) => tool.name === 'search_doctors');
    const properties = (search?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(properties.language?.enum).toEqual([...LANGUAGE_CODES]);
    expect(properties.insurance?.enum).toEqual([...INSURANCE_CODES]);
    expect(properties.acceptingNewPatients?.type).toBe('boolean');
    expect(properties.wheelchairAccessible?.type).toBe('boolean');
    for (const name of ['language', 'acceptingNewPatients', 'wheelchairAccessible', 'insurance']) {
      expect(properties[name]?.description, name).toMatch(/^API 1\.3\./);
      expect(search?.description, name).toContain(`${name}: API 1.3.`);
    }
  });

  it('selects exactly the records with the value; unknown matches neither true nor false', async () => {
    expect(await ids({ country: 'de', language: 'en' })).toEqual(['de-mueller']);
    expect(await ids({ country: 'de', language: 'tr' })).toEqual(['de-schmidt']);
    expect(await ids({ country: 'de', language: 'de' })).toEqual([
      'de-mueller',
      'de-orthopaedie',
      'de-schmidt',
    ]);
    expect(await ids({ country: 'de', acceptingNewPatients: true })).toEqual(['de-mueller']);
    expect(await ids({ country: 'de', acceptingNewPatients: false })).toEqual(['de-schmidt']);
    expect(await ids({ country: 'de', wheelchairAccessible: true })).toEqual(['de-mueller']);
    expect(await ids({ country: 'de', wheelchairAccessible: false })).toEqual(['de-orthopaedie']);
    expect(await ids({ country: 'de', insurance: 'pkv' })).toEqual(['de-mueller', 'de-schmidt']);
    expect(await ids({ country: 'de', insurance: 'gkv' })).toEqual(['de-mueller', 'de-orthopaedie']);
    expect(await ids({ country: 'es', insurance: 'sns' })).toEqual(['es-sanchez']);
    // Portugal's adse in a Spanish crawl was dropped.
    expect(await ids({ country: 'es', insurance: 'adse' })).toEqual([]);
    expect(
      await ids({
        country: 'de',
        language: 'en',
        acceptingNewPatients: true,
        insurance: 'gkv',
        verified: true,
      }),
    ).toEqual(['de-mueller']);
  });

  it('treats null as an absent argument', async () => {
    const result = await session.call('search_doctors', {
      country: 'it',
      language: null,
      acceptingNewPatients: null,
      wheelchairAccessible: null,
      insurance: null,
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect((result.structuredContent as DoctorPage).doctors.map((doctor) => doctor.id)).toEqual(['it-rossi']);
  });

  it('refuses bad values with the reasons the API gives', async () => {
    await expectRefusedLikeApi(session, [
      [{ country: 'de', language: 'EN' }, 'country=de&language=EN'],
      [{ country: 'de', language: 'english' }, 'country=de&language=english'],
      [{ country: 'de', acceptingNewPatients: 'true' }, 'country=de&acceptingNewPatients=yes'],
      [{ country: 'de', wheelchairAccessible: 1 }, 'country=de&wheelchairAccessible=1'],
      [{ country: 'de', insurance: 'aok' }, 'country=de&insurance=aok'],
    ]);
  });
});
