import { describe, expect, it } from 'vitest';
import { SITE_ORIGIN } from '@directory/testing';
import {
  SEARCH_PARAMETERS,
  capabilityStatement,
  searchParametersOf,
  specialtyCodeSystemUrl,
  translateSearch,
  type FhirParameters,
} from '../src/index.js';

/**
 * FHIR search parameters as the API's own search request: each declared parameter becomes the API
 * filter of its meaning, bad values are refused under the FHIR name, unknown ones are ignored unless
 * strict, and the CapabilityStatement lists exactly the declaration table.
 */

const lenient = { siteOrigin: SITE_ORIGIN, strict: false };
const strict = { siteOrigin: SITE_ORIGIN, strict: true };

function search(type: Parameters<typeof translateSearch>[0], parameters: FhirParameters, options = lenient) {
  const translated = translateSearch(type, parameters, options);
  if (!translated.ok) throw new Error(JSON.stringify(translated.error));
  return translated.value;
}

function requestOf(type: Parameters<typeof translateSearch>[0], parameters: FhirParameters) {
  const { query } = search(type, parameters);
  if (query.kind !== 'search') throw new Error(`expected a search, got ${query.kind}`);
  return query.request;
}

function errorsOf(
  type: Parameters<typeof translateSearch>[0],
  parameters: FhirParameters,
  options = lenient,
) {
  const translated = translateSearch(type, parameters, options);
  if (translated.ok) throw new Error('expected errors');
  return translated.error.map((error) => error.parameter);
}

describe('translateSearch', () => {
  it('address-country, address-city, _text and _count become country, city, q (relevance) and limit', () => {
    const request = requestOf('Organization', [
      ['address-country', 'ES'],
      ['address-city', 'San Sebastián'],
      ['_text', 'dentista'],
      ['_count', '5'],
    ]);
    expect(request).toMatchObject({
      country: 'es',
      city: 'san-sebastian',
      q: 'dentista',
      sort: 'relevance',
      limit: 5,
    });
    expect(request.fields).toBeDefined();
  });

  it('near becomes near and radius in metres (km by default, 5 km without a distance)', () => {
    expect(
      requestOf('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7|2|km'],
      ]),
    ).toMatchObject({
      near: { lat: 40.4, lon: -3.7 },
      radius: 2000,
    });
    expect(
      requestOf('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7|750|m'],
      ]),
    ).toMatchObject({ radius: 750 });
    expect(
      requestOf('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7'],
      ]),
    ).toMatchObject({ radius: 5000 });
    expect(
      errorsOf('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7|100|km'],
      ]),
    ).toEqual(['near']);
    expect(
      errorsOf('Location', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7|2|mi'],
      ]),
    ).toEqual(['near']);
    // near is a Location parameter: ignored elsewhere unless strict.
    expect(
      requestOf('Organization', [
        ['address-country', 'es'],
        ['near', '40.4|-3.7'],
      ]),
    ).not.toHaveProperty('near');
  });

  it('specialty and service-type take system|code with the directory code system, or a bare code', () => {
    const system = specialtyCodeSystemUrl(SITE_ORIGIN);
    for (const name of ['specialty', 'service-type']) {
      expect(
        requestOf('HealthcareService', [
          ['address-country', 'es'],
          [name, `${system}|dentistry`],
        ]),
      ).toMatchObject({
        specialty: 'dentistry',
      });
      expect(
        requestOf('HealthcareService', [
          ['address-country', 'es'],
          [name, 'dentistry'],
        ]),
      ).toMatchObject({
        specialty: 'dentistry',
      });
      expect(
        errorsOf('HealthcareService', [
          ['address-country', 'es'],
          [name, 'http://other|dentistry'],
        ]),
      ).toEqual([name]);
      expect(
        errorsOf('HealthcareService', [
          ['address-country', 'es'],
          [name, 'not-a-code'],
        ]),
      ).toEqual([name]);
    }
  });

  it('new-patients takes Plan-Net’s accepting-patients codes', () => {
    const accepting = (value: string) =>
      requestOf('HealthcareService', [
        ['address-country', 'es'],
        ['new-patients', value],
      ]).acceptingNewPatients;
    expect(accepting('newpt')).toBe(true);
    expect(accepting('nopt')).toBe(false);
    expect(
      accepting('http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AcceptingPatientsCS|newpt'),
    ).toBe(true);
    expect(
      errorsOf('HealthcareService', [
        ['address-country', 'es'],
        ['new-patients', 'existptonly'],
      ]),
    ).toEqual(['new-patients']);
    expect(
      errorsOf('HealthcareService', [
        ['address-country', 'es'],
        ['new-patients', 'http://x|newpt'],
      ]),
    ).toEqual(['new-patients']);
  });

  it('_lastUpdated: lower bounds become updatedSince, upper bounds the internal updatedBefore, eq both', () => {
    const bounds = (...values: string[]) => {
      const request = requestOf('Location', [
        ['address-country', 'de'],
        ...values.map((value): [string, string] => ['_lastUpdated', value]),
      ]);
      return [request.updatedSince, request.internal?.updatedBefore?.instant];
    };
    expect(bounds('ge2026-10-01')).toEqual(['2026-10-01T00:00:00.000Z', undefined]);
    expect(bounds('gt2026-10-01')).toEqual(['2026-10-02T00:00:00.000Z', undefined]);
    expect(bounds('sa2026-10-01T08:00:00Z')).toEqual(['2026-10-01T08:00:00.001Z', undefined]);
    expect(bounds('ge2026-10-01T10:00:00+02:00')).toEqual(['2026-10-01T08:00:00.000Z', undefined]);
    expect(bounds('le2026-10-01')).toEqual([undefined, '2026-10-02T00:00:00.000Z']);
    expect(bounds('lt2026-10-01')).toEqual([undefined, '2026-10-01T00:00:00.000Z']);
    expect(bounds('eb2026-10-01T08:00:00Z')).toEqual([undefined, '2026-10-01T08:00:00.000Z']);
    expect(bounds('le2026-10-01T08:00:00Z')).toEqual([undefined, '2026-10-01T08:00:00.001Z']);
    expect(bounds('eq2026-10-01')).toEqual(['2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z']);
    expect(bounds('2026-10-01')).toEqual(['2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z']);
    expect(bounds('ge2026-09-01', 'lt2026-10-01')).toEqual([
      '2026-09-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
    ]);
    for (const values of [
      ['ne2026-10-01'],
      ['ge2026-10-01T10:00'],
      ['ge2026-10-01', 'gt2026-10-02'],
      ['le2026-10-01', 'eq2026-09-01'],
      ['ge2026-10-01', 'le2026-10-02', 'lt2026-10-03'],
    ]) {
      expect(
        errorsOf('Location', [
          ['address-country', 'de'],
          ...values.map((value): [string, string] => ['_lastUpdated', value]),
        ]),
        values.join(' '),
      ).toEqual(['_lastUpdated']);
    }
  });

  it('name is the internal nameWords, name:contains nameContains; both repeat in the self link', () => {
    const translated = search('Organization', [
      ['address-country', 'es'],
      ['name', 'Clínica Den'],
    ]);
    expect(translated.query).toMatchObject({ request: { internal: { nameWords: 'Clínica Den' } } });
    const contains = search('Location', [
      ['address-country', 'es'],
      ['name:contains', 'ental'],
    ]);
    expect(contains.query).toMatchObject({ request: { internal: { nameContains: 'ental' } } });
    expect(contains.selfParameters).toContainEqual(['name:contains', 'ental']);
    expect(
      errorsOf('Location', [
        ['address-country', 'es'],
        ['name:phonetic', 'Sol'],
      ]),
    ).toEqual(['name:phonetic']);
    expect(
      errorsOf('Location', [
        ['address-country', 'es'],
        ['name', ' '],
      ]),
    ).toEqual(['name']);
  });

  it('name:exact is the internal nameExact, the value as given: name or alias, the name alone on HealthcareService', () => {
    for (const type of ['Organization', 'Location'] as const) {
      expect(
        search(type, [
          ['address-country', 'es'],
          ['name:exact', 'Clínica Dental Sol'],
        ]).query,
      ).toMatchObject({
        request: { internal: { nameExact: { text: 'Clínica Dental Sol', orLegalName: true } } },
      });
    }
    const service = search('HealthcareService', [
      ['address-country', 'es'],
      ['name:exact', ' Sol '],
    ]);
    expect(service.query).toMatchObject({
      request: { internal: { nameExact: { text: ' Sol ', orLegalName: false } } },
    });
    expect(service.selfParameters).toContainEqual(['name:exact', ' Sol ']);
    expect(
      errorsOf('Organization', [
        ['address-country', 'es'],
        ['name:exact', ' '],
      ]),
    ).toEqual(['name']);
  });

  it('address-postalcode is the internal postalCodePrefix on Organization and Location, and not served on HealthcareService', () => {
    const translated = search('Location', [
      ['address-country', 'de'],
      ['address-postalcode', 'SW1A 1'],
    ]);
    expect(translated.query).toMatchObject({ request: { internal: { postalCodePrefix: 'SW1A 1' } } });
    expect(translated.selfParameters).toContainEqual(['address-postalcode', 'SW1A 1']);
    expect(
      errorsOf('Organization', [
        ['address-country', 'es'],
        ['address-postalcode', ' - '],
      ]),
    ).toEqual(['address-postalcode']);
    expect(
      errorsOf(
        'HealthcareService',
        [
          ['address-country', 'es'],
          ['address-postalcode', '28'],
        ],
        strict,
      ),
    ).toEqual(['address-postalcode']);
    expect(
      errorsOf('Location', [
        ['_id', 'pl.abc'],
        ['address-postalcode', '28'],
      ]),
    ).toEqual(['address-postalcode']);
  });

  it('address is the internal addressPrefix on Organization and Location, and not served on HealthcareService', () => {
    const translated = search('Organization', [
      ['address-country', 'es'],
      ['address', 'Calle Mayor'],
    ]);
    expect(translated.query).toMatchObject({ request: { internal: { addressPrefix: 'Calle Mayor' } } });
    expect(translated.selfParameters).toContainEqual(['address', 'Calle Mayor']);
    expect(
      errorsOf('Location', [
        ['address-country', 'es'],
        ['address', '  '],
      ]),
    ).toEqual(['address']);
    expect(
      errorsOf(
        'HealthcareService',
        [
          ['address-country', 'es'],
          ['address', 'Madrid'],
        ],
        strict,
      ),
    ).toEqual(['address']);
  });

  it('specialty and service-type take an OR list: one code stays the API filter, several the internal specialtyAny', () => {
    const system = specialtyCodeSystemUrl(SITE_ORIGIN);
    const request = requestOf('HealthcareService', [
      ['address-country', 'es'],
      ['specialty', `dentistry,${system}|pediatrics,dentistry`],
    ]);
    expect(request.specialty).toBeUndefined();
    expect(request.internal?.specialtyAny).toEqual(['dentistry', 'pediatrics']);
    expect(
      requestOf('HealthcareService', [
        ['address-country', 'es'],
        ['specialty', 'pediatrics,dentistry'],
        ['service-type', 'dentistry,pediatrics'],
      ]).internal?.specialtyAny?.sort(),
    ).toEqual(['dentistry', 'pediatrics']);
    expect(
      errorsOf('HealthcareService', [
        ['address-country', 'es'],
        ['specialty', 'dentistry'],
        ['service-type', 'dentistry,pediatrics'],
      ]),
    ).toEqual(['service-type']);
    expect(
      errorsOf('HealthcareService', [
        ['address-country', 'es'],
        ['specialty', 'dentistry,not-a-code'],
      ]),
    ).toEqual(['specialty']);
  });

  it('address-country is required unless ids select the records', () => {
    expect(errorsOf('Location', [['address-city', 'Madrid']])).toEqual(['address-country']);
    expect(errorsOf('Location', [['address-country', 'zz']])).toEqual(['address-country']);
    expect(search('Location', [['_id', 'pl.a,pl.b']]).query).toEqual({
      kind: 'ids',
      placeIds: ['pl_a', 'pl_b'],
    });
  });

  it('_id, organization and location select ids (intersected), and refuse filters beside them', () => {
    expect(
      search('HealthcareService', [
        ['organization', 'Organization/x.1,x.2'],
        ['location', 'Location/x.2'],
      ]).query,
    ).toEqual({
      kind: 'ids',
      placeIds: ['x_2'],
    });
    expect(
      errorsOf('Location', [
        ['_id', 'a'],
        ['address-country', 'de'],
      ]),
    ).toEqual(['address-country']);
    expect(errorsOf('Location', [['_id', 'bad id!']])).toEqual(['_id']);
  });

  it('active=false matches nothing, active=true everything', () => {
    expect(
      search('Organization', [
        ['address-country', 'de'],
        ['active', 'false'],
      ]).query,
    ).toEqual({ kind: 'nothing' });
    expect(
      requestOf('Organization', [
        ['address-country', 'de'],
        ['active', 'true'],
      ]),
    ).toMatchObject({ country: 'de' });
    expect(
      errorsOf('Organization', [
        ['address-country', 'de'],
        ['active', 'yes'],
      ]),
    ).toEqual(['active']);
  });

  it('_summary=count asks the API to count, one record per page', () => {
    const translated = search('Location', [
      ['address-country', 'de'],
      ['_summary', 'count'],
    ]);
    expect(translated.result.summaryCount).toBe(true);
    expect(translated.query).toMatchObject({ kind: 'search', request: { count: true, limit: 1 } });
  });

  it('_include and _revinclude follow the declared references only', () => {
    const translated = search('HealthcareService', [
      ['address-country', 'de'],
      ['_include', 'HealthcareService:organization'],
      ['_include', 'HealthcareService:location'],
    ]);
    expect(translated.result.include.map((include) => include.target)).toEqual(['Organization', 'Location']);
    expect(
      search('Organization', [
        ['address-country', 'de'],
        ['_revinclude', 'Location:organization'],
      ]).result.revinclude.map((include) => include.source),
    ).toEqual(['Location']);
    expect(
      errorsOf('Location', [
        ['address-country', 'de'],
        ['_include', 'HealthcareService:organization'],
      ]),
    ).toEqual(['_include']);
  });

  it('ignores unknown parameters and leaves them out of the self link, unless strict', () => {
    const translated = search('Location', [
      ['address-country', 'de'],
      ['colour', 'blue'],
    ]);
    expect(translated.selfParameters).toEqual([['address-country', 'de']]);
    expect(
      errorsOf(
        'Location',
        [
          ['address-country', 'de'],
          ['colour', 'blue'],
        ],
        strict,
      ),
    ).toEqual(['colour']);
  });

  it('refuses a modifier that is not declared, and a parameter given twice', () => {
    expect(
      errorsOf('Location', [
        ['address-country', 'de'],
        ['address-city:exact', 'Berlin'],
      ]),
    ).toEqual(['address-city:exact']);
    expect(
      errorsOf('Location', [
        ['address-country', 'de'],
        ['address-country', 'es'],
      ]),
    ).toEqual(['address-country']);
  });

  it('keeps the cursor out of the self parameters and hands it to the API', () => {
    const translated = search('Location', [
      ['address-country', 'de'],
      ['_cursor', 'abc.def'],
    ]);
    expect(translated.selfParameters).toEqual([['address-country', 'de']]);
    expect(translated.query).toMatchObject({ request: { cursor: 'abc.def' } });
  });
});

describe('the CapabilityStatement', () => {
  it('lists exactly the declared parameters of each type, and the includes', () => {
    const statement = capabilityStatement({
      baseUrl: 'https://api.example/fhir/R4',
      softwareVersion: '1.4.0',
      date: '2026-11-29',
    });
    const [rest] = statement.rest;
    for (const resource of rest?.resource ?? []) {
      expect(resource.searchParam.map((parameter) => parameter.name)).toEqual(
        searchParametersOf(resource.type).map((declaration) => declaration.name),
      );
    }
    const declared = new Set(
      (rest?.resource ?? []).flatMap((resource) => resource.searchParam.map((p) => p.name)),
    );
    expect([...declared].sort()).toEqual(SEARCH_PARAMETERS.map((parameter) => parameter.name).sort());
    expect(rest?.resource.find((resource) => resource.type === 'HealthcareService')?.searchInclude).toEqual([
      'HealthcareService:organization',
      'HealthcareService:location',
    ]);
  });
});
