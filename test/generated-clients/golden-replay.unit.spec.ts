import { describe, expect, it } from 'vitest';
import {
  documentedGetOperations,
  exampleReplays,
  fieldDifferences,
  pathMatchesTemplate,
  sameInstant,
  replaysOf,
  type GoldenResponse,
} from './golden-replay.js';

const document = {
  paths: {
    '/api/v1/doctors': {
      get: {
        operationId: 'searchDoctors',
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SelectedDoctorPage' } } },
          },
        },
      },
    },
    '/api/v1/doctors:batchGet': { get: { operationId: 'batchGetDoctors' } },
    '/api/v1/doctors/{doctorId}': {
      get: {
        operationId: 'getDoctor',
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/SelectedDoctorResponse' },
                example: { doctor: { id: 'de-x' } },
              },
            },
          },
        },
      },
    },
  },
};

describe('golden bodies and the operations that answered them', () => {
  const operations = documentedGetOperations(document);

  it('reads each GET operation with the schema its 200 answer refers to', () => {
    expect(operations).toEqual([
      { operationId: 'searchDoctors', pathTemplate: '/api/v1/doctors', successSchema: 'SelectedDoctorPage' },
      { operationId: 'batchGetDoctors', pathTemplate: '/api/v1/doctors:batchGet', successSchema: undefined },
      {
        operationId: 'getDoctor',
        pathTemplate: '/api/v1/doctors/{doctorId}',
        successSchema: 'SelectedDoctorResponse',
        successExample: { doctor: { id: 'de-x' } },
      },
    ]);
  });

  it("replays each operation's own 200 example, path parameters filled", () => {
    expect(
      exampleReplays(operations).map(({ operation, golden }) => [operation.operationId, golden]),
    ).toEqual([
      [
        'getDoctor',
        {
          request: '/api/v1/doctors/example',
          status: 200,
          contentType: 'application/json',
          body: { doctor: { id: 'de-x' } },
        },
      ],
    ]);
  });

  it('matches a path template segment by segment', () => {
    expect(pathMatchesTemplate('/api/v1/doctors/de-mueller', '/api/v1/doctors/{doctorId}')).toBe(true);
    expect(pathMatchesTemplate('/api/v1/doctors/', '/api/v1/doctors/{doctorId}')).toBe(false);
    expect(pathMatchesTemplate('/api/v1/doctors:batchGet', '/api/v1/doctors')).toBe(false);
    expect(pathMatchesTemplate('/api/v1/doctors/a/b', '/api/v1/doctors/{doctorId}')).toBe(false);
  });

  it('replays 200 JSON bodies only, and reports those no operation answered', () => {
    const goldens: GoldenResponse[] = [
      { request: '/api/v1/doctors?country=de', status: 200, contentType: 'application/json', body: {} },
      { request: '/api/v1/doctors/de-x', status: 200, body: {} },
      { request: '/api/v1/doctors?country=zz', status: 400, body: {} },
      { request: '/api/v1/gone', status: 200, body: {} },
    ];
    const { replays, unmatched } = replaysOf(goldens, operations);
    expect(replays.map(({ operation, golden }) => [operation.operationId, golden.request])).toEqual([
      ['searchDoctors', '/api/v1/doctors?country=de'],
      ['getDoctor', '/api/v1/doctors/de-x'],
    ]);
    expect(unmatched.map(({ request }) => request)).toEqual(['/api/v1/gone']);
  });
});

describe('fieldDifferences', () => {
  const body = {
    doctors: [{ id: 'a', distanceMeters: 120, address: { city: null } }],
    page: { count: 1, nextCursor: null },
  };

  it('finds nothing when the client gives the body back, undefined optionals included', () => {
    const parsed = {
      doctors: [{ id: 'a', distanceMeters: 120, address: { city: null }, languages: undefined }],
      page: { count: 1, nextCursor: null },
    };
    expect(fieldDifferences(body, parsed)).toEqual([]);
  });

  it('names a lost field by its path', () => {
    const parsed = { doctors: [{ id: 'a', address: { city: null } }], page: { count: 1, nextCursor: null } };
    expect(fieldDifferences(body, parsed)).toEqual([
      { path: '$.doctors[0].distanceMeters', kind: 'lost', detail: 'was 120' },
    ]);
  });

  it('shows a rename as a lost and an added field', () => {
    const parsed = { doctors: [{ id: 'a', distance_meters: 120, address: { city: null } }], page: body.page };
    expect(fieldDifferences(body, parsed).map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'lost $.doctors[0].distanceMeters',
      'added $.doctors[0].distance_meters',
    ]);
  });

  it('reports changed values, null turned into absent, and extra items', () => {
    const parsed = {
      doctors: [{ id: 'a', distanceMeters: '120', address: {} }, { id: 'b' }],
      page: { count: 1 },
    };
    expect(fieldDifferences(body, parsed).map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'changed $.doctors[0].distanceMeters',
      'lost $.doctors[0].address.city',
      'changed $.doctors',
      'lost $.page.nextCursor',
    ]);
  });

  it('takes date-times naming the same instant as equal only when asked to', () => {
    const original = { creationTime: '2026-01-01T10:00:00.000Z' };
    const written = { creationTime: '2026-01-01T11:00:00+01:00' };
    expect(fieldDifferences(original, written).map(({ kind }) => kind)).toEqual(['changed']);
    expect(fieldDifferences(original, written, { dateTimesAsInstants: true })).toEqual([]);
    expect(
      fieldDifferences(original, { creationTime: '2026-01-01T10:00:01Z' }, { dateTimesAsInstants: true }),
    ).toHaveLength(1);
    expect(sameInstant('2026-01-01', '2026-01-01T00:00:00Z')).toBe(false);
  });

  it('takes a null the body left out as absent only when asked to, and nothing else', () => {
    const original = { id: 'a', name: 'Praxis' };
    const written = { id: 'a', name: 'Praxis', openingHours: null };
    expect(fieldDifferences(original, written).map(({ kind, path }) => `${kind} ${path}`)).toEqual([
      'added $.openingHours',
    ]);
    expect(fieldDifferences(original, written, { absentAsNull: true })).toEqual([]);
    const renamed = { id: 'a', fullName: 'Praxis', name: null };
    expect(
      fieldDifferences(original, renamed, { absentAsNull: true }).map(({ kind, path }) => `${kind} ${path}`),
    ).toEqual(['changed $.name', 'added $.fullName']);
  });

  it('quotes keys that are not identifiers', () => {
    expect(fieldDifferences({ workingHours: { 'Mon-Fri': [] } }, { workingHours: {} })).toEqual([
      { path: '$.workingHours["Mon-Fri"]', kind: 'lost', detail: 'was []' },
    ]);
  });
});
