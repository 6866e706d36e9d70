import { beforeAll, describe, expect, it } from 'vitest';
import { toSearchDocument } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import {
  INCLUDES,
  SUBSETTED,
  capabilityStatement,
  searchBundle,
  toLocation,
  toOrganization,
  translateSearch,
  type FhirParameters,
  type ServedRecord,
  subsetOf,
  toHealthcareService,
} from '../src/index.js';
import {
  FHIR_VALIDATOR_LOAD_TIMEOUT_MS,
  fhirValidator,
  type ValidationResult,
} from './support/fhir-validator.js';

/**
 * `_elements` (the matches keep the elements asked for and the mandatory ones, tagged SUBSETTED;
 * included resources come whole) and `_sort` (only the API's name order, ascending), as translated,
 * bundled and declared.
 */

const options = { siteOrigin: SITE_ORIGIN, strict: false };
const BASE = 'https://api.example/fhir/R4';

function translated(type: Parameters<typeof translateSearch>[0], parameters: FhirParameters) {
  const result = translateSearch(type, parameters, options);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

function errorsOf(type: Parameters<typeof translateSearch>[0], parameters: FhirParameters) {
  const result = translateSearch(type, parameters, options);
  if (result.ok) throw new Error('expected errors');
  return result.error;
}

const document = toSearchDocument(
  placeState({ id: 'pl_elements1', name: 'Clínica Dental Sol', legalName: 'Sol Odontología S.L.' }),
  { siteOrigin: SITE_ORIGIN },
);
if (!document.served) throw new Error('a fixture record must be served');
const record: ServedRecord = { doctor: document.doctor, extras: document.extras, version: 3 };

describe('_elements', () => {
  let validate: (resource: object) => ValidationResult;
  beforeAll(async () => {
    validate = await fhirValidator();
  }, FHIR_VALIDATOR_LOAD_TIMEOUT_MS);

  it('keeps each distinct valid name, is repeated by the self link, and refuses what is no element name', () => {
    const search = translated('Location', [
      ['address-country', 'es'],
      ['_elements', 'name,telecom,name,notAnElementOfLocation'],
    ]);
    expect(search.result.elements).toEqual(['name', 'telecom', 'notAnElementOfLocation']);
    expect(search.selfParameters).toContainEqual(['_elements', 'name,telecom,name,notAnElementOfLocation']);
    for (const value of ['', 'name,', 'name telecom', 'address.city', '1name', `a${'b'.repeat(64)}`]) {
      expect(
        errorsOf('Location', [
          ['address-country', 'es'],
          ['_elements', value],
        ]).map((error) => error.parameter),
        value,
      ).toEqual(['_elements']);
    }
  });

  it('subsets the matches only: mandatory elements and those asked for, tagged SUBSETTED; includes whole', () => {
    const search = translated('Location', [
      ['address-country', 'es'],
      ['_elements', 'telecom,name,id,alias,notAnElementOfLocation,constructor'],
      ['_include', 'Location:organization'],
    ]);
    const bundle = searchBundle(
      {
        type: 'Location',
        baseUrl: BASE,
        records: [record],
        result: search.result,
        selfParameters: search.selfParameters,
        nextCursor: null,
      },
      { siteOrigin: SITE_ORIGIN },
    );
    const whole = toLocation(record);
    if (whole === null) throw new Error('the fixture has a Location');
    const [match, included] = bundle.entry ?? [];
    // The resource's own order; an element the resource does not fill (or no element at all) is absent.
    expect(match?.resource).toEqual({
      resourceType: 'Location',
      id: whole.id,
      meta: { ...whole.meta, tag: [SUBSETTED] },
      name: whole.name,
      alias: whole.alias,
      telecom: whole.telecom,
    });
    expect(Object.keys(match?.resource ?? {})).toEqual([
      'resourceType',
      'id',
      'meta',
      'name',
      'alias',
      'telecom',
    ]);
    expect(included).toMatchObject({ resource: toOrganization(record), search: { mode: 'include' } });
    expect(INCLUDES.length).toBeGreaterThan(0);
  });

  it('a subset of each type is valid FHIR R4 (SUBSETTED in meta.tag)', () => {
    const resources = [
      toOrganization(record),
      toLocation(record),
      toHealthcareService(record, { siteOrigin: SITE_ORIGIN }),
    ];
    for (const resource of resources) {
      if (resource === null) throw new Error('the fixture has every resource');
      expect(validate(subsetOf(resource, ['name', 'telecom'])).errors).toEqual([]);
    }
  });
});

describe('_sort', () => {
  it('name is the API’s name order, also instead of _text’s relevance; the self link repeats it', () => {
    const search = translated('Organization', [
      ['address-country', 'es'],
      ['_text', 'dental'],
      ['_sort', 'name'],
    ]);
    expect(search.query).toMatchObject({ kind: 'search', request: { sort: 'name', q: 'dental' } });
    expect(search.selfParameters).toContainEqual(['_sort', 'name']);
    expect(
      translated('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7|2|km'],
        ['_sort', 'name'],
      ]).query,
    ).toMatchObject({ request: { sort: 'name' } });
  });

  it('refuses descending, other keys, several keys and an id search, naming _sort', () => {
    for (const value of ['-name', '_lastUpdated', 'name,_id', '_score', '']) {
      const errors = errorsOf('Organization', [
        ['address-country', 'es'],
        ['_sort', value],
      ]);
      expect(
        errors.map((error) => error.parameter),
        value,
      ).toEqual(['_sort']);
    }
    expect(
      errorsOf('Organization', [
        ['_sort', '-name'],
        ['address-country', 'es'],
      ])[0]?.reason,
    ).toMatch(/descending/);
    expect(
      errorsOf('Organization', [
        ['_id', 'pl.elements1'],
        ['_sort', 'name'],
      ]).map((error) => error.parameter),
    ).toEqual(['_sort']);
  });
});

describe('the CapabilityStatement', () => {
  it('states the result parameters, _elements and _sort among them', () => {
    const [rest] = capabilityStatement({ baseUrl: BASE, softwareVersion: '1', date: '2026-11-29' }).rest;
    expect(rest?.documentation).toMatch(/_elements \(/);
    expect(rest?.documentation).toMatch(/_sort=name \(ascending only/);
  });
});
