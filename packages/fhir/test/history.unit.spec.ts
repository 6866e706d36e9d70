import { beforeAll, describe, expect, it } from 'vitest';
import { toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import {
  INTERACTIONS,
  capabilityStatement,
  historyBundle,
  translateHistory,
  translateInstanceHistory,
  type FhirParameters,
  type ServedRecord,
} from '../src/index.js';
import {
  FHIR_VALIDATOR_LOAD_TIMEOUT_MS,
  fhirValidator,
  type ValidationResult,
} from './support/fhir-validator.js';

/**
 * history-type and history-instance: their parameters as the changes feed's, and a page of the feed as
 * a FHIR history Bundle (PUT with the current resource, DELETE without content, next only after
 * changes), valid FHIR R4.
 */

const options = { siteOrigin: SITE_ORIGIN };
const BASE = 'https://api.example/fhir/R4';

function recordOf(id: string, version: number): ServedRecord {
  const document = toSearchDocument(
    placeState({ id, name: `Praxis ${id}`, country: 'de', updatedAt: '2026-11-01T10:00:00.000Z' }),
    options,
  );
  if (!document.served) throw new Error('a fixture record must be served');
  return { doctor: document.doctor, extras: document.extras, version };
}

function history(parameters: FhirParameters, strict = false) {
  const translated = translateHistory(parameters, { strict });
  if (!translated.ok) throw new Error(JSON.stringify(translated.error));
  return translated.value;
}

function historyErrors(parameters: FhirParameters, strict = false) {
  const translated = translateHistory(parameters, { strict });
  if (translated.ok) throw new Error('expected errors');
  return translated.error.map((error) => error.parameter);
}

describe('translateHistory', () => {
  it('address-country, _count and _since become the feed’s country, limit and instant start', () => {
    const { changes, selfParameters } = history([
      ['address-country', 'DE'],
      ['_count', '5'],
      ['_since', '2026-11-01T10:00:00+01:00'],
    ]);
    expect(changes).toEqual({
      country: 'de',
      limit: 5,
      start: { kind: 'instant', at: new Date('2026-11-01T09:00:00Z') },
      merges: false,
    });
    expect(selfParameters).toEqual([
      ['_count', '5'],
      ['_since', '2026-11-01T10:00:00+01:00'],
      ['address-country', 'DE'],
    ]);
  });

  it('without _since starts from the snapshot, 20 a page; _cursor carries on in place of _since', () => {
    expect(history([['address-country', 'es']]).changes).toMatchObject({
      start: { kind: 'snapshot' },
      limit: 20,
    });
    const resumed = history([
      ['address-country', 'es'],
      ['_since', '2026-11-01T00:00:00Z'],
      ['_cursor', 'abc.def'],
    ]);
    expect(resumed.changes.start).toEqual({ kind: 'cursor', token: 'abc.def' });
    expect(resumed.selfParameters.map(([name]) => name)).not.toContain('_cursor');
  });

  it('refuses a missing country, a bad _count, _since without offset, repeats and modifiers', () => {
    expect(historyErrors([])).toEqual(['address-country']);
    expect(historyErrors([['address-country', 'xx']])).toEqual(['address-country']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['_count', '0'],
      ]),
    ).toEqual(['_count']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['_count', '101'],
      ]),
    ).toEqual(['_count']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['_since', '2026-11-01'],
      ]),
    ).toEqual(['_since']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['_since', '2026-11-01T00:00:00'],
      ]),
    ).toEqual(['_since']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['address-country', 'de'],
      ]),
    ).toEqual(['address-country']);
    expect(
      historyErrors([
        ['address-country', 'es'],
        ['_since:exact', '2026-11-01T00:00:00Z'],
      ]),
    ).toEqual(['_since:exact']);
  });

  it('ignores an unknown parameter, unless strict', () => {
    expect(
      history([
        ['address-country', 'es'],
        ['name', 'x'],
      ]).selfParameters,
    ).toEqual([['address-country', 'es']]);
    expect(
      historyErrors(
        [
          ['address-country', 'es'],
          ['name', 'x'],
        ],
        true,
      ),
    ).toEqual(['name']);
  });
});

describe('translateInstanceHistory', () => {
  it('takes _since (an instant) and _count, nothing else when strict', () => {
    const translated = translateInstanceHistory([['_since', '2026-11-01T00:00:00Z']], { strict: false });
    expect(translated).toEqual({
      ok: true,
      value: {
        since: new Date('2026-11-01T00:00:00Z'),
        selfParameters: [['_since', '2026-11-01T00:00:00Z']],
      },
    });
    const bad = translateInstanceHistory(
      [
        ['_since', 'yesterday'],
        ['_count', 'x'],
        ['other', '1'],
      ],
      { strict: true },
    );
    expect(bad.ok ? [] : bad.error.map((error) => error.parameter).sort()).toEqual([
      '_count',
      '_since',
      'other',
    ]);
  });
});

describe('historyBundle', () => {
  let validate: (resource: object) => ValidationResult;
  beforeAll(async () => {
    validate = await fhirValidator();
  }, FHIR_VALIDATOR_LOAD_TIMEOUT_MS);

  const page = historyBundle(
    {
      type: 'Location',
      baseUrl: BASE,
      changes: [
        { placeId: 'pl_a1', record: recordOf('pl_a1', 3) },
        { placeId: 'pl_b2', record: null, changedAt: '2026-11-02T00:00:00.000Z' },
        // No FHIR id: left out, as from search.
        { placeId: `pl_${'x'.repeat(70)}`, record: null },
      ],
      selfParameters: [['address-country', 'de']],
      cursor: 'first.cursor',
      nextCursor: 'next.cursor',
    },
    options,
  );

  it('has PUT with the current resource for a served record, DELETE without content for a removal', () => {
    expect(page.type).toBe('history');
    expect(
      page.entry?.map((entry) => [entry.request.method, entry.request.url, entry.response.status]),
    ).toEqual([
      ['PUT', 'Location/pl.a1', '200 OK'],
      ['DELETE', 'Location/pl.b2', '204 No Content'],
    ]);
    const [put, removal] = page.entry ?? [];
    expect(put?.resource).toMatchObject({ resourceType: 'Location', id: 'pl.a1', meta: { versionId: '3' } });
    expect(put?.response).toMatchObject({ etag: 'W/"3"', lastModified: '2026-11-01T10:00:00.000Z' });
    expect(put?.fullUrl).toBe(`${BASE}/Location/pl.a1`);
    expect(removal).not.toHaveProperty('resource');
    expect(removal?.response.lastModified).toBe('2026-11-02T00:00:00.000Z');
  });

  it('links self to the page read and next to the feed’s cursor after it; none without a next cursor', () => {
    expect(page.link).toEqual([
      { relation: 'self', url: `${BASE}/Location/_history?address-country=de&_cursor=first.cursor` },
      { relation: 'next', url: `${BASE}/Location/_history?address-country=de&_cursor=next.cursor` },
    ]);
    const last = historyBundle(
      { type: 'Organization', baseUrl: BASE, changes: [], selfParameters: [], nextCursor: null },
      options,
    );
    expect(last.link.map((link) => link.relation)).toEqual(['self']);
    expect(last).not.toHaveProperty('entry');
  });

  it('is valid FHIR R4 (each type), and the validator does see a history entry without request', () => {
    for (const type of ['Organization', 'Location', 'HealthcareService'] as const) {
      const bundle = historyBundle(
        {
          type,
          baseUrl: BASE,
          instance: 'pl.a1',
          changes: [
            { placeId: 'pl_a1', record: recordOf('pl_a1', 2) },
            { placeId: 'pl_c3', record: null },
          ],
          selfParameters: [],
          nextCursor: null,
          total: 2,
        },
        options,
      );
      expect(validate(bundle).errors, type).toEqual([]);
    }
    const broken = { ...page, entry: page.entry?.map(({ request: _request, ...entry }) => entry) };
    expect(validate(broken).errors.length).toBeGreaterThan(0);
  });
});

describe('the CapabilityStatement', () => {
  it('declares history-type and history-instance on every type, saying versions are not retained', () => {
    const statement = capabilityStatement({ baseUrl: BASE, softwareVersion: '1.4.0', date: '2026-11-29' });
    for (const resource of statement.rest[0]?.resource ?? []) {
      expect(resource.interaction.map((interaction) => interaction.code)).toEqual([...INTERACTIONS]);
      const documentation = (code: string) =>
        resource.interaction.find((interaction) => interaction.code === code)?.documentation ?? '';
      expect(documentation('history-type')).toMatch(/not retained/);
      expect(documentation('history-type')).toMatch(/address-country/);
      expect(documentation('history-instance')).toMatch(/current version only/);
      // read answers If-None-Match with the version tag.
      expect(resource.conditionalRead).toBe('not-match');
    }
  });
});
