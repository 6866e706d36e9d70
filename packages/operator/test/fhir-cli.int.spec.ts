import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toSearchDocument } from '@directory/domain';
import { DIRECTORY_RESOURCE_TYPES, resourceOf } from '@directory/fhir';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  SITE_ORIGIN,
  createTestSearch,
  indexPlaces,
  nodeArguments,
  placeState,
  runToExit,
  type FinishedProcess,
  type TestSearch,
} from '@directory/testing';

const CLI = 'packages/operator/src/fhir.cli.ts';

const clinic = placeState({
  id: 'fx_fhir_cli',
  name: 'Clínica Dental Sol',
  legalName: 'Sol Odontología S.L.',
  country: 'es',
  city: 'Madrid',
  citySlug: 'madrid',
  primaryType: 'Dentista',
  specialties: ['Ortodoncia'],
  location: { latitude: 40.4168, longitude: -3.7038 },
  workingHours: { Lunes: [{ open: '09:00', close: '14:00' }] },
  acceptingNewPatients: true,
  version: 5,
  updatedAt: '2026-10-01T08:30:00.000Z',
});

/**
 * `directory fhir` against the real index: a served record's three resources, each the value the API's
 * read serves (the same mapping of the same indexed record), whichever way the record is named; exit 1
 * when no served record has the id, 2 for an id that cannot be one.
 */
describe('directory fhir', () => {
  let search: TestSearch;
  let alias: string;

  const run = (args: string[]): Promise<FinishedProcess> =>
    runToExit(nodeArguments(CLI, args), {
      ...process.env,
      NODE_ENV: 'test',
      ELASTICSEARCH_INDEX: alias,
      SITE_ORIGIN,
    });

  beforeAll(async () => {
    search = createTestSearch('fhir-cli');
    alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias, { shards: 1, replicas: 0 });
    await indexPlaces(search.client, alias, [clinic]);
  });
  afterAll(() => search.cleanup());

  it('prints the Organization, Location and HealthcareService as read serves them, by id, profile URL or FHIR id; exit 1 and 2 otherwise', async () => {
    const document = toSearchDocument(clinic, { siteOrigin: SITE_ORIGIN });
    if (!document.served) throw new Error('the fixture must be served');
    const record = { doctor: document.doctor, extras: document.extras, version: clinic.version };
    // What GET /fhir/R4/{type}/{id} sends: the mapping's value as JSON.
    const expected = DIRECTORY_RESOURCE_TYPES.map(
      (type) => JSON.parse(JSON.stringify(resourceOf(type, record, { siteOrigin: SITE_ORIGIN }))) as unknown,
    );
    const [byId, byProfile, byFhirId, inDataset, unknown, otherDataset, invalid] = await Promise.all([
      run(['fx_fhir_cli']),
      run([document.doctor.profileUrl]),
      run(['Location/fx.fhir.cli']),
      run(['fx_fhir_cli', '--dataset', 'es']),
      run(['fx_no_such_record']),
      run(['fx_fhir_cli', '--dataset', 'de']),
      run(['not an id']),
    ]);
    expect(byId.code, byId.stderr).toBe(0);
    const lines = byId.stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(expected);
    expect(expected).toMatchObject([
      { resourceType: 'Organization' },
      { resourceType: 'Location' },
      { resourceType: 'HealthcareService' },
    ]);
    for (const other of [byProfile, byFhirId, inDataset]) expect(other).toEqual(byId);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/fx_no_such_record: no served record has this id/);
    expect(otherDataset.code).toBe(1);
    expect(otherDataset.stderr).toMatch(/not in dataset de/);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe('');
  });
});
