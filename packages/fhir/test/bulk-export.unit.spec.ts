import { beforeAll, describe, expect, it } from 'vitest';
import { toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import {
  BULK_EXPORT_OPERATION_DEFINITION,
  bulkExportManifest,
  capabilityStatement,
  ndjsonLinesOf,
  parseBulkExportKickOff,
  resourceOf,
  type FhirParameters,
  type ServedRecord,
} from '../src/index.js';
import {
  FHIR_VALIDATOR_LOAD_TIMEOUT_MS,
  fhirValidator,
  type ValidationResult,
} from './support/fhir-validator.js';

/**
 * Bulk Data $export: the kick-off's parameters and Prefer header, the manifest, the NDJSON lines, and
 * the operation in the CapabilityStatement.
 */

const options = { siteOrigin: SITE_ORIGIN };
const ASYNC = { prefer: 'respond-async', strict: false };
const ES = ['_typeFilter', 'Organization?address-country=ES'] as const;

const parse = (parameters: FhirParameters, prefer = ASYNC) => parseBulkExportKickOff(parameters, prefer);
/** The parameters a refused kick-off names. */
function refused(parameters: FhirParameters, prefer = ASYNC): string[] {
  const result = parse(parameters, prefer);
  if (result.ok) throw new Error('expected a refusal');
  return result.error.map((error) => error.parameter);
}

describe('the kick-off', () => {
  it('takes the dataset from _typeFilter, every type by default, and _since as an instant', () => {
    expect(parse([ES])).toEqual({
      ok: true,
      value: { country: 'es', types: ['Organization', 'Location', 'HealthcareService'] },
    });
    const result = parse([
      ['_type', 'Location,HealthcareService'],
      // The filter's own query is URL-encoded (%45 is E).
      ['_typeFilter', 'Location?address-country=es,HealthcareService?address-country=%45S'],
      ['_since', '2026-10-01T10:00:00+02:00'],
      ['_outputFormat', 'ndjson'],
    ]);
    expect(result).toEqual({
      ok: true,
      value: {
        country: 'es',
        types: ['Location', 'HealthcareService'],
        since: new Date('2026-10-01T08:00:00.000Z'),
      },
    });
  });

  it('accepts repeated _type and _typeFilter, each output format, and Prefer among other preferences', () => {
    const result = parse(
      [
        ['_type', 'Location'],
        ['_type', 'Organization,Location'],
        ['_typeFilter', 'Location?address-country=de'],
        ['_typeFilter', 'Organization?address-country=DE'],
      ],
      { prefer: 'handling=lenient, Respond-Async', strict: false },
    );
    expect(result).toEqual({ ok: true, value: { country: 'de', types: ['Location', 'Organization'] } });
    for (const format of ['application/fhir+ndjson', 'application/ndjson', 'ndjson'])
      expect(parse([ES, ['_outputFormat', format]]).ok, format).toBe(true);
  });

  it('requires Prefer: respond-async', () => {
    expect(refused([ES], { prefer: '', strict: false })).toEqual(['Prefer']);
    expect(refused([ES], { prefer: 'respond-sync', strict: false })).toEqual(['Prefer']);
  });

  it('refuses a bad output format, type, _since or filter, naming it', () => {
    expect(refused([ES, ['_outputFormat', 'application/fhir+json']])).toEqual(['_outputFormat']);
    expect(refused([ES, ['_type', 'Patient']])).toEqual(['_type']);
    expect(refused([ES, ['_type', 'Organization,']])).toEqual(['_type']);
    expect(refused([ES, ['_since', '2026-10-01']])).toEqual(['_since']);
    expect(refused([ES, ['_since', '2026-10-01T10:00:00']])).toEqual(['_since']);
    expect(refused([ES, ['_since', 'x'], ['_since', 'y']])).toEqual(['_since', '_since']);
    expect(refused([ES, ['_outputFormat', 'ndjson'], ['_outputFormat', 'ndjson']])).toEqual([
      '_outputFormat',
    ]);
    for (const filter of [
      'Organization',
      'Organization?',
      'Organization?name=Sol',
      'Organization?address-country=ES&name=Sol',
      'Organization?address-country=ES&address-country=ES',
      'Organization?address-country=XX',
      'Patient?address-country=ES',
    ])
      expect(refused([['_typeFilter', filter]]), filter).toEqual(['_typeFilter']);
  });

  it('needs one dataset, named by a filter of an exported type', () => {
    expect(refused([])).toEqual(['_typeFilter']);
    expect(refused([ES, ['_typeFilter', 'Location?address-country=FR']])).toEqual(['_typeFilter']);
    expect(refused([ES, ['_type', 'Location']])).toEqual(['_typeFilter']);
    // An unknown type is named once, not again as its filters'.
    expect(refused([ES, ['_type', 'Patient']])).toEqual(['_type']);
  });

  it('ignores unknown parameters, unless strict', () => {
    expect(parse([ES, ['_elements', 'id']]).ok).toBe(true);
    expect(refused([ES, ['_elements', 'id']], { prefer: 'respond-async', strict: true })).toEqual([
      '_elements',
    ]);
  });
});

function recordOf(id: string, version: number): ServedRecord {
  const document = toSearchDocument(placeState({ id, name: `Praxis ${id}`, country: 'de' }), options);
  if (!document.served) throw new Error('a fixture record must be served');
  return { doctor: document.doctor, extras: document.extras, version };
}

describe('the manifest and the files', () => {
  let validate: (resource: object) => ValidationResult;
  beforeAll(async () => {
    validate = await fhirValidator();
  }, FHIR_VALIDATOR_LOAD_TIMEOUT_MS);

  it('lists one file per type with resources, each with its count', () => {
    const manifest = bulkExportManifest(
      {
        transactionTime: '2026-11-29T10:00:00.000Z',
        request: 'https://api.example/fhir/R4/$export?_typeFilter=x',
        types: ['Location', 'Organization'],
        counts: { Location: 2, Organization: 0 },
      },
      (type) => `https://api.example/files/${type}.ndjson`,
    );
    expect(manifest).toEqual({
      transactionTime: '2026-11-29T10:00:00.000Z',
      request: 'https://api.example/fhir/R4/$export?_typeFilter=x',
      requiresAccessToken: true,
      output: [{ type: 'Location', url: 'https://api.example/files/Location.ndjson', count: 2 }],
      error: [],
    });
  });

  it('writes each record as one line, the resource read returns, valid FHIR R4', () => {
    const records = [recordOf('bulk_a', 3), recordOf('bulk-b', 1), recordOf('x'.repeat(65), 1)];
    for (const type of ['Organization', 'Location', 'HealthcareService'] as const) {
      const text = ndjsonLinesOf(type, records, options);
      const lines = text.split('\n');
      // The record without a FHIR id has no line; every line ends with a newline.
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe('');
      const resources = lines.slice(0, 2).map((line) => JSON.parse(line) as object);
      expect(resources).toEqual(records.slice(0, 2).map((record) => resourceOf(type, record, options)));
      for (const resource of resources) expect(validate(resource).errors).toEqual([]);
    }
  });

  it('is declared in the CapabilityStatement as the Bulk Data export operation', () => {
    const statement = capabilityStatement({
      baseUrl: 'https://api.example/fhir/R4',
      softwareVersion: '',
      date: '',
    });
    expect(statement.rest[0]?.operation).toEqual([
      expect.objectContaining({ name: 'export', definition: BULK_EXPORT_OPERATION_DEFINITION }),
    ]);
    expect(statement.rest[0]?.operation[0]?.documentation).toMatch(/address-country/);
  });
});
