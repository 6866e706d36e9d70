import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fhirValidator } from '../../../packages/fhir/test/support/fhir-validator.js';
import {
  FIXTURE_PLACES,
  allPages,
  createFhirApi,
  type Bundle,
  type FhirApi,
} from './support/fhir-harness.js';

/**
 * /fhir/R4 over the real index: the open CapabilityStatement, read and vread of the three types, the
 * API's keyed access (401, 429 with Retry-After, sandbox routing of test keys), content negotiation
 * (406, 415), errors as OperationOutcome, and every resource returned for the sample dataset valid FHIR
 * R4 (medplum's validator, with Plan-Net's extension definitions) with 0 errors.
 */

type Outcome = {
  resourceType: string;
  issue: Array<{ severity: string; code: string; diagnostics: string }>;
};

const TYPES = ['Organization', 'Location', 'HealthcareService'] as const;
const FHIR_JSON = /^application\/fhir\+json; charset=utf-8$/;

describe('/fhir/R4', () => {
  let api: FhirApi;

  beforeAll(async () => {
    api = await createFhirApi('api-fhir');
  });
  afterAll(() => api.close());

  const expectOutcome = (
    response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
    status: number,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(FHIR_JSON);
    const outcome = response.json() as Outcome;
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue[0]?.severity).toBe('error');
    return outcome;
  };

  describe('metadata', () => {
    it('is open (no key) and a valid CapabilityStatement', async () => {
      const response = await api.app.inject({ method: 'GET', url: '/fhir/R4/metadata' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(FHIR_JSON);
      const statement = response.json<{ resourceType: string; fhirVersion: string }>();
      expect(statement).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1' });
      const validate = await fhirValidator();
      expect(validate(statement).errors).toEqual([]);
    });

    it('the specialty CodeSystem, ValueSet and ConceptMap are open and valid', async () => {
      const validate = await fhirValidator();
      for (const path of ['CodeSystem/specialty', 'ValueSet/specialty', 'ConceptMap/specialty-snomed']) {
        const response = await api.app.inject({ method: 'GET', url: `/fhir/R4/${path}` });
        expect(response.statusCode).toBe(200);
        expect(validate(response.json()).errors).toEqual([]);
      }
    });
  });

  describe('read and vread', () => {
    it('reads each type by the record id, with versionId, lastUpdated and Last-Modified', async () => {
      for (const type of TYPES) {
        const response = await api.get(`/fhir/R4/${type}/fx.madrid.dent`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toMatch(FHIR_JSON);
        // FHIR's version tag, which the API's HTTP caching answers If-None-Match with.
        expect(response.headers.etag).toBe('W/"4"');
        expect(response.headers['last-modified']).toBe('Thu, 01 Oct 2026 08:30:00 GMT');
        expect(response.json()).toMatchObject({
          resourceType: type,
          id: 'fx.madrid.dent',
          meta: { versionId: '4', lastUpdated: '2026-10-01T08:30:00.000Z' },
        });
      }
    });

    it('vread serves the current version and 404s any other', async () => {
      const current = await api.get('/fhir/R4/Location/fx.madrid.dent/_history/4');
      expect(current.statusCode).toBe(200);
      expect(current.json()).toEqual((await api.get('/fhir/R4/Location/fx.madrid.dent')).json());
      const older = await api.get('/fhir/R4/Location/fx.madrid.dent/_history/3');
      expect(expectOutcome(older, 404).issue[0]?.diagnostics).toMatch(/current version/);
    });

    it('If-None-Match with the version tag is a 304 while that version is current, weak or strong', async () => {
      for (const url of [
        '/fhir/R4/Organization/fx.madrid.dent',
        '/fhir/R4/Location/fx.madrid.dent/_history/4',
      ]) {
        for (const tag of ['W/"4"', '"4"']) {
          const current = await api.get(url, { 'if-none-match': tag });
          expect(current.statusCode, `${url} ${tag}`).toBe(304);
          expect(current.body).toBe('');
          expect(current.headers.etag).toBe('W/"4"');
        }
        const stale = await api.get(url, { 'if-none-match': 'W/"3"' });
        expect(stale.statusCode).toBe(200);
      }
      // A search's answer keeps the API's tag of the body.
      const search = await api.get('/fhir/R4/Location?address-country=es&_count=1');
      expect(search.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(
        (
          await api.get('/fhir/R4/Location?address-country=es&_count=1', {
            'if-none-match': search.headers.etag as string,
          })
        ).statusCode,
      ).toBe(304);
    });

    it('an unknown id is a 404 OperationOutcome, a malformed one a 400', async () => {
      expectOutcome(await api.get('/fhir/R4/Organization/no.such.record'), 404);
      expect(expectOutcome(await api.get('/fhir/R4/Organization/bad_id'), 400).issue[1]?.diagnostics).toMatch(
        /^id: /,
      );
      expectOutcome(await api.get('/fhir/R4/Practitioner/x'), 404);
    });
  });

  describe('keyed access, as /api/v1', () => {
    it('no key or an unknown key: 401 OperationOutcome with WWW-Authenticate', async () => {
      const none = await api.app.inject({ method: 'GET', url: '/fhir/R4/Location/fx.madrid.dent' });
      expect(expectOutcome(none, 401).issue[0]?.code).toBe('login');
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      const unknown = await api.app.inject({
        method: 'GET',
        url: '/fhir/R4/Location/fx.madrid.dent',
        headers: { authorization: 'Bearer dk_live_00000000000000000000000000000000' },
      });
      expectOutcome(unknown, 401);
    });

    it('Authorization: Bearer works as X-API-Key does', async () => {
      const response = await api.app.inject({
        method: 'GET',
        url: '/fhir/R4/Location/fx.madrid.dent',
        headers: { authorization: `Bearer ${api.secret}` },
      });
      expect(response.statusCode).toBe(200);
    });

    it('a used-up quota: 429 OperationOutcome with Retry-After', async () => {
      const app = await api.harness.newApp({ rateLimit: { max: 2, windowSeconds: 30 } });
      const { secret } = await api.harness.createKey('quota@example.com');
      const call = () =>
        app.inject({
          method: 'GET',
          url: '/fhir/R4/Location/fx.madrid.dent',
          headers: { 'x-api-key': secret },
        });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(expectOutcome(refused, 429).issue[0]?.code).toBe('throttled');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('a test key reads the sandbox, not the live records', async () => {
      const { secret } = await api.harness.createKey('sandbox@example.com', 'sandbox key', 'test');
      const response = await api.app.inject({
        method: 'GET',
        url: '/fhir/R4/Location/fx.madrid.dent',
        headers: { 'x-api-key': secret },
      });
      expectOutcome(response, 404);
    });
  });

  describe('formats and errors', () => {
    it('406 for an Accept it cannot serve; _format=json and Accept application/json are served', async () => {
      expectOutcome(await api.get('/fhir/R4/Location/fx.madrid.dent', { accept: 'text/html' }), 406);
      expect(
        (await api.get('/fhir/R4/Location/fx.madrid.dent', { accept: 'application/json' })).statusCode,
      ).toBe(200);
      expect(
        (await api.get('/fhir/R4/Location/fx.madrid.dent?_format=json', { accept: 'text/html' })).statusCode,
      ).toBe(200);
    });

    it('POST _search takes a form body (415 for another) and answers as GET does', async () => {
      const post = (payload: string, contentType: string) =>
        api.app.inject({
          method: 'POST',
          url: '/fhir/R4/Location/_search',
          headers: { 'x-api-key': api.secret, 'content-type': contentType },
          payload,
        });
      const form = await post('address-country=es&address-city=Madrid', 'application/x-www-form-urlencoded');
      expect(form.statusCode, form.body).toBe(200);
      const get = await api.get('/fhir/R4/Location?address-country=es&address-city=Madrid');
      expect(form.json<Bundle>().entry).toEqual(get.json<Bundle>().entry);
      expectOutcome(await post('{"address-country":"es"}', 'application/json'), 415);
    });

    it('a bad parameter is a 400 naming it; an unknown one is ignored unless Prefer: handling=strict', async () => {
      const bad = expectOutcome(await api.get('/fhir/R4/Location?address-country=es&_count=1000'), 400);
      expect(bad.issue.map((issue) => issue.diagnostics)).toContainEqual(expect.stringMatching(/^_count: /));
      const lenient = await api.getOk<Bundle>('/fhir/R4/Location?address-country=es&colour=blue');
      expect(lenient.link[0]?.url).not.toContain('colour');
      const strict = await api.get('/fhir/R4/Location?address-country=es&colour=blue', {
        prefer: 'handling=strict',
      });
      expect(expectOutcome(strict, 400).issue[1]?.diagnostics).toMatch(/^colour: /);
    });

    it('a tampered cursor is a 400 naming _cursor', async () => {
      const outcome = expectOutcome(
        await api.get('/fhir/R4/Location?address-country=es&_cursor=abc.def'),
        400,
      );
      expect(outcome.issue[1]?.diagnostics).toMatch(/^_cursor: /);
    });
  });

  describe('searches of internal filters', () => {
    it('_lastUpdated given twice is a range; name, name:contains and an OR of specialties', async () => {
      const ids = async (query: string) =>
        (await allPages(api, `/fhir/R4/HealthcareService?address-country=es&${query}`))
          .flatMap((bundle) => bundle.entry ?? [])
          .map((entry) => entry.resource.id);
      // Dentistas Retiro changed on 1 September, Clínica Dental Sol on 1 October.
      const september = await ids('_lastUpdated=ge2026-09-01&_lastUpdated=lt2026-10-01&name=dentistas');
      expect(september).toContain('fx.madrid.full');
      expect(september).not.toContain('fx.madrid.dent');
      const october = await ids('_lastUpdated=eq2026-10-01&name:contains=dental%20s');
      expect(october).toContain('fx.madrid.dent');
      expect(october).not.toContain('fx.madrid.full');
      // A word of the legal name and the start of another, in any case.
      expect(await ids('name=SOL%20odon')).toContain('fx.madrid.dent');
      expect(await ids('name=sol%20odonx')).not.toContain('fx.madrid.dent');
      const either = await ids('specialty=orthodontics,pediatrics&address-city=Madrid');
      expect(either).toContain('fx.madrid.dent');
      expect(either).not.toContain('fx.madrid.full');
    });
  });

  describe('the walk-through of docs/fhir.md', () => {
    it('dentists in Madrid accepting new patients, with their organisations', async () => {
      const madridDentists = (accepting: boolean) =>
        api.served
          .filter((document) => document.country === 'es' && document.citySlug === 'madrid')
          .filter((document) => document.specialtyCodes.includes('dentistry'))
          .filter((document) => document.acceptingNewPatients === accepting)
          .map((document) => document.placeId.replaceAll('_', '.'))
          .sort();
      const expected = madridDentists(true);
      expect(expected).toContain('fx.madrid.dent');
      const bundle = await api.getOk<Bundle>(
        '/fhir/R4/HealthcareService?address-country=es&address-city=Madrid&specialty=dentistry&new-patients=newpt&_include=HealthcareService:organization&_count=100',
      );
      const idsOf = (mode: string, type: string) =>
        (bundle.entry ?? [])
          .filter((entry) => entry.search.mode === mode && entry.resource.resourceType === type)
          .map((entry) => entry.resource.id)
          .sort();
      expect(idsOf('match', 'HealthcareService')).toEqual(expected);
      expect(idsOf('include', 'Organization')).toEqual(expected);
      const notAccepting = await api.getOk<Bundle>(
        '/fhir/R4/HealthcareService?address-country=es&address-city=Madrid&specialty=dentistry&new-patients=nopt&_count=100',
      );
      expect((notAccepting.entry ?? []).map((entry) => entry.resource.id).sort()).toEqual(
        madridDentists(false),
      );
      expect(madridDentists(false)).toContain('fx.madrid.full');
    });
  });

  describe('validation', () => {
    it('every resource returned for the sample dataset validates against FHIR R4 with 0 errors', async () => {
      const validate = await fhirValidator();
      const countries = [...new Set(api.served.map((document) => document.country))];
      expect(countries.length).toBeGreaterThan(1);
      let validated = 0;
      for (const country of countries) {
        const bundles = await allPages(
          api,
          `/fhir/R4/HealthcareService?address-country=${country}&_count=100&_include=HealthcareService:organization&_include=HealthcareService:location`,
        );
        for (const bundle of bundles) {
          expect(validate(bundle).errors).toEqual([]);
          for (const entry of bundle.entry ?? []) {
            const { errors } = validate(entry.resource);
            expect(errors, `${entry.fullUrl}: ${JSON.stringify(errors)}`).toEqual([]);
            validated += 1;
          }
        }
      }
      // Three resources per served record, every one of them.
      expect(validated).toBe(3 * api.served.length);
      expect(api.served.length).toBeGreaterThan(FIXTURE_PLACES.length);
    });
  });
});
