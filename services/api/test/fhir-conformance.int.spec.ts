import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { foldText } from '@directory/domain';
import {
  INCLUDES,
  SORT_KEYS,
  SUBSETTED,
  capabilityStatement,
  includeName,
  specialtyCodeSystemUrl,
  type IncludeDeclaration,
} from '@directory/fhir';
import { SITE_ORIGIN } from '@directory/testing';
import {
  allPages,
  createFhirApi,
  type Bundle,
  type FhirApi,
  type ServedDocument,
} from './support/fhir-harness.js';

/**
 * Conformance of /fhir/R4's searches: one test per search parameter, prefix and include that the
 * served CapabilityStatement declares, generated from that statement, each compared with a brute-force
 * answer over the same records filtered in memory (all pages followed). A declared parameter without a
 * case here fails, and so does a declared modifier no probe of its case tries, so nothing is declared
 * untested. Paging, includes and read go through a real FHIR
 * client (fhir-kit-client) over HTTP.
 */

type Type = 'Organization' | 'Location' | 'HealthcareService';
type Declared = { type: Type; name: string; documentation: string; prefixes: string[]; modifiers: string[] };
/** One query of a case: the FHIR parameters and the records that must come back. */
type Probe = {
  query: Record<string, string>;
  expected: (served: ServedDocument[]) => ServedDocument[];
  subset?: true;
};
/** The probes of a parameter (for one prefix, when it has prefixes), built from the indexed records. */
type Case = (context: Context) => Probe[];
type Context = { served: ServedDocument[]; country: string; type: Type };

const fhirId = (placeId: string) => placeId.replaceAll('_', '.');
const inCountry = (country: string) => (document: ServedDocument) => document.country === country;
const slugOf = (text: string) =>
  foldText(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join('-');

function distanceMeters(from: { lat: number; lon: number }, to: { lat: number; lon: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.lat - from.lat);
  const dLon = radians(to.lon - from.lon);
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.7714 * Math.asin(Math.sqrt(a));
}

function pick<T>(items: readonly T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) throw new Error('no item to pick');
  return item;
}

type DatePrefix = 'ge' | 'gt' | 'sa' | 'le' | 'lt' | 'eb' | 'eq';

/**
 * `_lastUpdated` of one prefix: the bound is a record's own updatedAt, so the boundary itself is tried.
 * A value is a range (a date its UTC day, a date-time its millisecond): ge from its start, gt and sa from
 * its end, le up to its end, lt and eb up to its start, eq within it.
 */
function lastUpdated(prefix: DatePrefix): Case {
  return ({ served, country }) => {
    const dated = served.filter(inCountry(country)).filter((document) => document.updatedAt !== null);
    const bound = pick(dated, 3).updatedAt ?? '';
    const day = bound.slice(0, 10);
    const within = (start: number, end: number) => (document: ServedDocument) => {
      const at = Date.parse(document.updatedAt ?? '');
      switch (prefix) {
        case 'ge':
          return at >= start;
        case 'gt':
        case 'sa':
          return at >= end;
        case 'le':
          return at < end;
        case 'lt':
        case 'eb':
          return at < start;
        case 'eq':
          return at >= start && at < end;
      }
    };
    const boundMs = Date.parse(bound);
    const dayMs = Date.parse(`${day}T00:00:00Z`);
    return [
      {
        query: { 'address-country': country, _lastUpdated: `${prefix}${bound}` },
        expected: (all) => all.filter(inCountry(country)).filter(within(boundMs, boundMs + 1)),
      },
      {
        query: { 'address-country': country, _lastUpdated: `${prefix}${day}` },
        expected: (all) => all.filter(inCountry(country)).filter(within(dayMs, dayMs + 86_400_000)),
      },
    ];
  };
}

/** The folded words of a text, as the name match compares them. */
const wordsOf = (text: string | null | undefined) =>
  foldText(text ?? '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');

/**
 * `name`: every word given is a word of the name or legal name, the last a prefix (the index may split
 * German compounds into more words: a subset); `name:contains`: the text anywhere in the folded display
 * name; `name:exact` below.
 */
const nameCase: Case = ({ served, country, type }) => {
  const named = served
    .filter(inCountry(country))
    .filter((document) => wordsOf(document.doctor.name).length >= 2);
  const [first = '', second = ''] = wordsOf(pick(named, 6).doctor.name);
  const prefix = second.slice(0, Math.max(1, Math.ceil(second.length / 2)));
  const middle = foldText(pick(named, 9).doctor.name ?? '').slice(2, 6);
  const probes: Probe[] = [
    {
      query: { 'address-country': country, name: `${first.toUpperCase()} ${prefix}` },
      expected: (all) =>
        all.filter(inCountry(country)).filter((document) => {
          const words = [...wordsOf(document.doctor.name), ...wordsOf(document.doctor.legalName)];
          return words.includes(first) && words.some((word) => word.startsWith(prefix));
        }),
      subset: true,
    },
    {
      query: { 'address-country': country, 'name:contains': middle },
      expected: (all) =>
        all.filter(inCountry(country)).filter((document) => document.sortName.includes(middle)),
    },
    ...exactNameProbes(type, country, pick(named, 6).doctor.name ?? ''),
    // The fixture's legal name differs from its name: an alias of Organization and Location only.
    ...exactNameProbes(type, 'es', 'Sol Odontología S.L.'),
  ];
  return probes;
};

/**
 * `name:exact`: the whole name, case and accents included, or the whole alias (the legal name) on
 * Organization and Location; HealthcareService's name alone (the name, else the legal name). The same
 * text in another case or without its accents is another name.
 */
function exactNameProbes(type: Type, country: string, name: string): Probe[] {
  const namesOf = (document: ServedDocument) => {
    const { name: own, legalName } = document.doctor;
    return type === 'HealthcareService' ? [own ?? legalName] : [own, legalName];
  };
  // The same letters typed decomposed are the same name (compared in NFC); without accents they are not.
  const decomposed = name.normalize('NFD');
  const variants = [name, name.toUpperCase(), decomposed, decomposed.replace(/\p{M}/gu, '')];
  return [...new Set(variants)].map((text) => ({
    query: { 'address-country': country, 'name:exact': text },
    expected: (all) =>
      all.filter(inCountry(country)).filter((document) => namesOf(document).includes(text.normalize('NFC'))),
  }));
}

/** A postal code as compared: lowercase, without accents, keeping only letters and digits. */
const postalKeyOf = (code: string) =>
  [...code.normalize('NFD').toLowerCase()].filter((character) => /[\p{L}\p{N}]/u.test(character)).join('');

/**
 * `address-postalcode`: the postal code starts with the value, case-insensitive, spaces and punctuation
 * ignored; a whole code matches itself.
 */
const postalCodeCase: Case = ({ served, country }) => {
  const coded = served
    .filter(inCountry(country))
    .filter((document) => postalKeyOf(document.doctor.address.postalCode ?? '').length >= 3);
  const whole = pick(coded, 4).doctor.address.postalCode ?? '';
  const start = postalKeyOf(pick(coded, 8).doctor.address.postalCode ?? '').slice(0, 2);
  return [whole, whole.toLowerCase().replace(/\s/g, ''), start.toUpperCase()].map((value) => ({
    query: { 'address-country': country, 'address-postalcode': value },
    expected: (all) =>
      all
        .filter(inCountry(country))
        .filter((document) =>
          postalKeyOf(document.doctor.address.postalCode ?? '').startsWith(postalKeyOf(value)),
        ),
  }));
};

/**
 * `address`: any part of the address (street, city, state, postal code, country code) starts with the
 * value, case- and accent-insensitive.
 */
const addressCase: Case = ({ served, country }) => {
  const inDataset = served.filter(inCountry(country));
  const partsOf = (document: ServedDocument) => {
    const { street, city, state, postalCode, country: code } = document.doctor.address;
    return [street, city, state, postalCode, code].flatMap((part) => (part === null ? [] : [foldText(part)]));
  };
  const streets = inDataset.flatMap((document) => {
    const street = document.doctor.address.street;
    return street !== null && street.length > 6 ? [street] : [];
  });
  const city = pick(
    inDataset.flatMap((document) =>
      document.doctor.address.city === null ? [] : [document.doctor.address.city],
    ),
    2,
  );
  // A whole street in capitals, the start of another, a city's first letters, a country code.
  const values = [pick(streets, 3).toUpperCase(), pick(streets, 9).slice(0, 5), city.slice(0, 3), country];
  return values.map((value) => ({
    query: { 'address-country': country, address: value },
    expected: (all) =>
      all
        .filter(inCountry(country))
        .filter((document) => partsOf(document).some((part) => part.startsWith(foldText(value)))),
  }));
};

function ids(name: '_id' | 'organization' | 'location'): Case {
  return ({ served }) => {
    const chosen = [pick(served, 1), pick(served, 7), pick(served, 20)];
    const prefix = name === 'organization' ? 'Organization/' : name === 'location' ? 'Location/' : '';
    const value = chosen.map((document) => `${prefix}${fhirId(document.placeId)}`).join(',');
    const wanted = new Set(chosen.map((document) => document.placeId));
    return [
      { query: { [name]: value }, expected: (all) => all.filter((document) => wanted.has(document.placeId)) },
      // A bare id works as a reference too, and an unknown id matches nothing.
      {
        query: { [name]: `${fhirId(chosen[0]?.placeId ?? '')},no.such.id` },
        expected: (all) => all.filter((document) => document.placeId === chosen[0]?.placeId),
      },
    ];
  };
}

function specialty(name: 'specialty' | 'service-type'): Case {
  return ({ served, country }) => {
    const codes = [
      ...new Set(served.filter(inCountry(country)).flatMap((document) => document.specialtyCodes)),
    ].sort();
    const code = pick(codes, 2);
    const expected = (all: ServedDocument[]) =>
      all.filter(inCountry(country)).filter((document) => document.specialtyCodes.includes(code));
    return [
      {
        query: { 'address-country': country, [name]: `${specialtyCodeSystemUrl(SITE_ORIGIN)}|${code}` },
        expected,
      },
      { query: { 'address-country': country, [name]: code }, expected },
      // An OR list: any of the codes.
      {
        query: { 'address-country': country, [name]: `${code},${pick(codes, 5)}` },
        expected: (all) =>
          all
            .filter(inCountry(country))
            .filter(
              (document) =>
                document.specialtyCodes.includes(code) || document.specialtyCodes.includes(pick(codes, 5)),
            ),
      },
    ];
  };
}

/** The brute-force case of every declared parameter (and prefix: `name` + `:` + prefix). */
const CASES: Readonly<Record<string, Case>> = {
  _id: ids('_id'),
  organization: ids('organization'),
  location: ids('location'),
  '_lastUpdated:ge': lastUpdated('ge'),
  '_lastUpdated:gt': lastUpdated('gt'),
  '_lastUpdated:sa': lastUpdated('sa'),
  '_lastUpdated:le': lastUpdated('le'),
  '_lastUpdated:lt': lastUpdated('lt'),
  '_lastUpdated:eb': lastUpdated('eb'),
  '_lastUpdated:eq': lastUpdated('eq'),
  name: nameCase,
  'address-postalcode': postalCodeCase,
  address: addressCase,
  'address-country': ({ served }) =>
    [...new Set(served.map((document) => document.country))].map((country) => ({
      query: { 'address-country': country.toUpperCase() },
      expected: (all) => all.filter(inCountry(country)),
    })),
  'address-city': ({ served, country }) => {
    const named = served
      .filter(inCountry(country))
      .filter((document) => document.cityName !== null && slugOf(document.cityName) === document.citySlug);
    return [pick(named, 0), pick(named, 5)].map((document) => ({
      query: { 'address-country': country, 'address-city': document.cityName ?? '' },
      expected: (all) =>
        all.filter(inCountry(country)).filter((other) => other.citySlug === document.citySlug),
    }));
  },
  _text: ({ served, country }) => {
    // Relevance adds fuzzy matches; every record whose name holds the word must be among them.
    const named = served
      .filter(inCountry(country))
      .filter((document) => (document.doctor.name ?? '').length > 4);
    const word =
      foldText(pick(named, 4).doctor.name ?? '')
        .split(' ')
        .sort((a, b) => b.length - a.length)[0] ?? '';
    return [
      {
        query: { 'address-country': country, _text: word },
        expected: (all) =>
          all.filter(inCountry(country)).filter((document) =>
            foldText(document.doctor.name ?? '')
              .split(' ')
              .includes(word),
          ),
        subset: true,
      },
    ];
  },
  near: ({ served, country }) => {
    const located = served.filter(inCountry(country)).filter((document) => document.location !== null);
    const centre = pick(located, 3).location ?? { lat: 0, lon: 0 };
    return [
      { distance: '3', unit: 'km', metres: 3000 },
      { distance: '800', unit: 'm', metres: 800 },
    ].map(({ distance, unit, metres }) => ({
      query: { 'address-country': country, near: `${centre.lat}|${centre.lon}|${distance}|${unit}` },
      // A metre either way of the edge is left to the cluster's arithmetic.
      expected: (all) =>
        all
          .filter(inCountry(country))
          .filter(
            (document) =>
              document.location !== null && distanceMeters(centre, document.location) <= metres - 1,
          ),
      subset: true,
    }));
  },
  specialty: specialty('specialty'),
  'service-type': specialty('service-type'),
  'new-patients': () => {
    // The fixtures' Madrid records say so either way; the sample data says nothing.
    const country = 'es';
    const known = (value: boolean) => (all: ServedDocument[]) =>
      all.filter(inCountry(country)).filter((document) => document.acceptingNewPatients === value);
    return [
      { query: { 'address-country': country, 'new-patients': 'newpt' }, expected: known(true) },
      { query: { 'address-country': country, 'new-patients': 'nopt' }, expected: known(false) },
    ];
  },
  active: ({ country }) => [
    {
      query: { 'address-country': country, active: 'true' },
      expected: (all) => all.filter(inCountry(country)),
    },
    { query: { 'address-country': country, active: 'false' }, expected: () => [] },
  ],
};

type Statement = {
  rest: Array<{
    resource: Array<{ type: Type; searchParam: Array<{ name: string; documentation: string }> }>;
  }>;
};

/** Each declared (type, parameter) with its prefixes, read off a CapabilityStatement. */
function declaredIn(statement: Statement): Declared[] {
  return (statement.rest[0]?.resource ?? []).flatMap((resource) =>
    resource.searchParam.map((parameter) => ({
      type: resource.type,
      name: parameter.name,
      documentation: parameter.documentation,
      prefixes: /Prefixes: ([a-z, ]+)\./.exec(parameter.documentation)?.[1]?.split(', ') ?? [],
      modifiers: /Modifiers: ([a-z, ]+)\./.exec(parameter.documentation)?.[1]?.split(', ') ?? [],
    })),
  );
}

/**
 * The tests are generated from the statement the server builds (the same function /metadata answers
 * with; a test below holds the served one to it): one per type, parameter and prefix.
 */
const DECLARED = declaredIn(
  capabilityStatement({ baseUrl: 'http://localhost/fhir/R4', softwareVersion: '', date: '' }),
);
const DECLARED_CASES = DECLARED.flatMap(({ type, name, prefixes }) =>
  (prefixes.length === 0 ? [name] : prefixes.map((prefix) => `${name}:${prefix}`)).map(
    (key) => [type, key] as const,
  ),
);

/**
 * Each declared `_sort` key as the brute-force order of the served records: `name` is the folded name,
 * then the record id (code unit order, as the index's keywords compare them). A declared key without
 * one fails.
 */
const SORTS: Readonly<Record<string, (a: ServedDocument, b: ServedDocument) => number>> = {
  name: (a, b) => compareText(a.sortName, b.sortName) || compareText(a.placeId, b.placeId),
};
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The ids a search's pages return (each once), following Bundle.link next. */
async function matchedIds(
  api: FhirApi,
  type: Type,
  query: Record<string, string>,
  count = '50',
): Promise<string[]> {
  const parameters = new URLSearchParams({ ...query, _count: count });
  const bundles = await allPages(api, `/fhir/R4/${type}?${parameters.toString()}`);
  const found = bundles.flatMap((bundle) =>
    (bundle.entry ?? []).filter((entry) => entry.search.mode === 'match'),
  );
  for (const entry of found) expect(entry.resource.resourceType).toBe(type);
  return found.map((entry) => entry.resource.id);
}

describe('/fhir/R4 search conformance (one test per declared parameter, prefix and include)', () => {
  let api: FhirApi;
  let declared: Declared[] = [];
  let country = '';
  let client: Client;

  beforeAll(async () => {
    api = await createFhirApi('api-fhir-conformance');
    declared = declaredIn(
      (await api.app.inject({ method: 'GET', url: '/fhir/R4/metadata' })).json<Statement>(),
    );
    // The dataset with most served records.
    const counts = new Map<string, number>();
    for (const document of api.served) counts.set(document.country, (counts.get(document.country) ?? 0) + 1);
    country = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as AddressInfo;
    client = new Client({
      baseUrl: `http://127.0.0.1:${port}/fhir/R4`,
      customHeaders: { 'x-api-key': api.secret },
    });
  }, 120_000);
  afterAll(() => api.close());

  it('the served CapabilityStatement declares what the tests are generated from, each with a case', () => {
    expect(declared).toEqual(DECLARED);
    expect(DECLARED_CASES.length).toBeGreaterThan(15);
    const untested = DECLARED_CASES.filter(([, key]) => CASES[key] === undefined);
    expect(untested, 'declared in the CapabilityStatement without a conformance case').toEqual([]);
  });

  it('every declared modifier is tried by a probe of its parameter’s case', () => {
    const modifiers = DECLARED.flatMap(({ type, name, modifiers }) =>
      modifiers.map((modifier) => ({ type, name, modifier })),
    );
    expect(modifiers.length).toBeGreaterThan(0);
    for (const { type, name, modifier } of modifiers) {
      const probes = CASES[name]?.({ served: api.served, country, type }) ?? [];
      const tried = probes.some((probe) => `${name}:${modifier}` in probe.query);
      expect(tried, `${type} ${name}:${modifier} has no probe`).toBe(true);
    }
  });

  it.each(DECLARED_CASES)(
    '%s %s answers as the brute-force filter over the same records',
    async (type, key) => {
      const probes = CASES[key]?.({ served: api.served, country, type }) ?? [];
      expect(probes.length, `no case for ${key}`).toBeGreaterThan(0);
      let found = 0;
      for (const probe of probes) {
        const expected = probe
          .expected(api.served)
          .map((document) => fhirId(document.placeId))
          .sort();
        found += expected.length;
        const actual = await matchedIds(api, type, probe.query);
        expect(new Set(actual).size, `${key}: duplicates across pages`).toBe(actual.length);
        if (probe.subset === true) {
          expect(actual, `${type} ${JSON.stringify(probe.query)}`).toEqual(expect.arrayContaining(expected));
        } else {
          expect(actual.sort(), `${type} ${JSON.stringify(probe.query)}`).toEqual(expected);
        }
      }
      // A case that expects nothing everywhere would prove nothing.
      expect(found, `${key}: every probe expected no record`).toBeGreaterThan(0);
    },
  );

  it('near returns nothing beyond its distance, nearest first', async () => {
    const located = api.served.filter(inCountry(country)).filter((document) => document.location !== null);
    const centre = pick(located, 3).location ?? { lat: 0, lon: 0 };
    const bundles = await allPages(
      api,
      `/fhir/R4/Location?address-country=${country}&near=${centre.lat}|${centre.lon}|3|km`,
    );
    const distances = bundles
      .flatMap((bundle) => bundle.entry ?? [])
      .map((entry) => entry.resource.position as { latitude: number; longitude: number })
      .map((position) => distanceMeters(centre, { lat: position.latitude, lon: position.longitude }));
    expect(distances.length).toBeGreaterThan(0);
    expect(Math.max(...distances)).toBeLessThanOrEqual(3001);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it.each(INCLUDES.map((include) => [includeName(include), include] as const))(
    '_include=%s adds the referenced resource of every match, and _revinclude the way back',
    async (_name, include: IncludeDeclaration) => {
      for (const [type, parameter, other] of [
        [include.source, '_include', include.target],
        [include.target, '_revinclude', include.source],
      ] as const) {
        const bundle = (await client.search({
          resourceType: type,
          searchParams: { 'address-country': country, _count: 10, [parameter]: includeName(include) },
        })) as Bundle;
        const matches = (bundle.entry ?? []).filter((entry) => entry.search.mode === 'match');
        const included = (bundle.entry ?? []).filter((entry) => entry.search.mode === 'include');
        expect(matches.length).toBe(10);
        expect(included.map((entry) => entry.resource.resourceType)).toEqual(matches.map(() => other));
        expect(included.map((entry) => entry.resource.id)).toEqual(matches.map((entry) => entry.resource.id));
      }
    },
  );

  it('_count pages with Bundle.link next (a real FHIR client): every record once, each page at most _count', async () => {
    const expected = api.served
      .filter(inCountry(country))
      .map((document) => fhirId(document.placeId))
      .sort();
    const seen: string[] = [];
    let bundle = (await client.search({
      resourceType: 'Organization',
      searchParams: { 'address-country': country, _count: 7 },
    })) as Bundle | undefined;
    let pages = 0;
    while (bundle !== undefined) {
      pages += 1;
      const entries = bundle.entry ?? [];
      expect(entries.length).toBeLessThanOrEqual(7);
      seen.push(...entries.map((entry) => entry.resource.id));
      const next = bundle.link.find((link) => link.relation === 'next');
      expect(next === undefined ? undefined : new URL(next.url).searchParams.get('_count')).toBe(
        next === undefined ? undefined : '7',
      );
      bundle = next === undefined ? undefined : ((await client.nextPage({ bundle: bundle })) as Bundle);
    }
    expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 7)));
    expect(seen.sort()).toEqual(expected);
  });

  it.each(SORT_KEYS.map((key) => [key] as const))(
    '_sort=%s pages (cursors bound to it) in the brute-force order, also with _text and near',
    async (key) => {
      const compare = SORTS[key];
      expect(compare, `no brute-force order for the declared _sort=${key}`).toBeDefined();
      if (compare === undefined) return;
      const byId = new Map(api.served.map((document) => [fhirId(document.placeId), document]));
      const expected = api.served
        .filter(inCountry(country))
        .sort(compare)
        .map((document) => fhirId(document.placeId));
      // Small pages: the order has to hold across many cursors.
      expect(await matchedIds(api, 'Organization', { 'address-country': country, _sort: key }, '9')).toEqual(
        expected,
      );
      // Relevance and distance are those searches' own orders; _sort replaces them.
      const located = api.served.filter(inCountry(country)).filter((document) => document.location !== null);
      const centre = pick(located, 3).location ?? { lat: 0, lon: 0 };
      const word = wordsOf(pick(located, 4).doctor.name).sort((a, b) => b.length - a.length)[0] ?? '';
      for (const [type, query] of [
        ['HealthcareService', { _text: word }],
        ['Location', { near: `${centre.lat}|${centre.lon}|50|km` }],
      ] as const) {
        const ids = await matchedIds(api, type, { 'address-country': country, _sort: key, ...query }, '5');
        expect(ids.length, `${type} ${JSON.stringify(query)} found nothing`).toBeGreaterThan(1);
        const sorted = ids
          .map((id) => byId.get(id))
          .filter((document) => document !== undefined)
          .sort(compare)
          .map((document) => fhirId(document.placeId));
        expect(ids, `${type} ${JSON.stringify(query)}`).toEqual(sorted);
      }
      const refused = await api.get(`/fhir/R4/Organization?address-country=${country}&_sort=-${key}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('_sort');
    },
  );

  it('_elements: matches keep only those elements and the mandatory ones, tagged SUBSETTED; includes and read as FHIR says', async () => {
    const path = `/fhir/R4/Location?address-country=${country}&_count=5&_elements=name,telecom,notAnElement&_include=Location:organization`;
    const bundle = await api.getOk<Bundle>(path);
    const entries = bundle.entry ?? [];
    const matches = entries.filter((entry) => entry.search.mode === 'match');
    expect(matches.length).toBe(5);
    for (const { resource } of matches) {
      const whole = await api.getOk<Record<string, unknown>>(`/fhir/R4/Location/${resource.id}`);
      const meta = whole.meta as Record<string, unknown>;
      const kept = Object.fromEntries(
        Object.entries(whole).filter(([name]) => ['name', 'telecom'].includes(name)),
      );
      expect(resource).toEqual({
        resourceType: 'Location',
        id: whole.id,
        meta: { ...meta, tag: [SUBSETTED] },
        ...kept,
      });
      // read and vread take _elements too, with the same answer.
      const query = '_elements=name,telecom,notAnElement';
      expect(await api.getOk(`/fhir/R4/Location/${resource.id}?${query}`)).toEqual(resource);
      const version = String(meta.versionId);
      expect(await api.getOk(`/fhir/R4/Location/${resource.id}/_history/${version}?${query}`)).toEqual(
        resource,
      );
    }
    for (const entry of entries.filter((candidate) => candidate.search.mode === 'include')) {
      expect(entry.resource).toEqual(await api.getOk(`/fhir/R4/Organization/${entry.resource.id}`));
    }
    const self = new URL(bundle.link.find((link) => link.relation === 'self')?.url ?? '');
    expect(self.searchParams.get('_elements')).toBe('name,telecom,notAnElement');
    for (const bad of ['address.city', 'name,,telecom']) {
      const refused = await api.get(`/fhir/R4/Location?address-country=${country}&_elements=${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.body).toContain('_elements');
    }
  });

  it('_summary=count gives the brute-force total without entries', async () => {
    const bundle = await api.getOk<Bundle>(`/fhir/R4/Location?address-country=${country}&_summary=count`);
    expect(bundle.total).toBe(api.served.filter(inCountry(country)).length);
    expect(bundle.entry).toBeUndefined();
  });

  it('read and vread through the client give the resource a search returned', async () => {
    const document = pick(api.served, 11);
    const id = fhirId(document.placeId);
    for (const resourceType of ['Organization', 'Location', 'HealthcareService'] as const) {
      const read = (await client.read({ resourceType, id })) as unknown as {
        id: string;
        meta: { versionId: string };
      };
      expect(read.id).toBe(id);
      expect(read.meta.versionId).toBe(String(document.version));
      const vread = await client.vread({ resourceType, id, version: read.meta.versionId });
      expect(vread).toEqual(read);
      const searched = await api.getOk<Bundle>(`/fhir/R4/${resourceType}?_id=${id}`);
      expect(searched.entry?.[0]?.resource).toEqual(read);
    }
  });
});
