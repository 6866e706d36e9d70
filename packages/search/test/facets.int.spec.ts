import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEvents } from '@directory/sample-data';
import { ensureDoctorsIndex } from '@directory/search-index';
import { SITE_ORIGIN, createTestSearch, projectRawEvents } from '@directory/testing';
import {
  FACET_NAMES,
  buildSearchRequest,
  type FacetName,
  type FacetValue,
  type SearchDocument,
  type SearchRequest,
} from '@directory/domain';
import { createDirectory } from '../src/index.js';

/**
 * Facet counts against a brute-force recount on the real index: for random filter combinations over the
 * sample data, each facet value's count is the total of the same search with that value as the facet's
 * filter (its own filter replaced: disjunctive; q and openAt kept; openNow counted at the request time), no value with records is left out unless `facetLimit`
 * cut it after the listed ones, and values come most records first. The index has two shards, so the
 * counts are exact beyond the single-shard default. fast-check prints the seed and the counterexample
 * of a failure; `FACETS_SEED=<seed>` replays it.
 */

const SECRET = 'facets-test-secret-0123456789abcdef';
const REQUEST_TIME = new Date('2026-03-04T10:00:00Z');
const RUNS = 1_000;

type Served = SearchDocument;
type Country = Served['country'];

/** The filter value each facet's bucket stands for, read off a document (what the brute force may try). */
function valuesOf(name: FacetName, document: Served): Array<string | boolean> {
  switch (name) {
    case 'specialty':
      return document.specialtyCodes;
    case 'city':
      return [document.citySlug];
    case 'verified':
      return [document.verified];
    case 'whatsapp':
      return [document.whatsappEligible];
    case 'language':
      return document.languages;
    case 'acceptingNewPatients':
      return document.acceptingNewPatients === null ? [] : [document.acceptingNewPatients];
    case 'wheelchairAccessible':
      return document.wheelchairAccessible === null ? [] : [document.wheelchairAccessible];
    case 'insurance':
      return document.insurance;
    case 'openNow':
      // The filter takes only true; whether a record is open is the index's to work out at REQUEST_TIME.
      return [true];
  }
}

describe('search facets count what the search would find with each value (real Elasticsearch)', () => {
  const search = createTestSearch('facets-property');
  const alias = `${search.prefix}_doctors`;
  const directory = createDirectory({
    client: search.client,
    alias,
    siteOrigin: SITE_ORIGIN,
    cursorSecret: SECRET,
  });
  /** Each dataset's served documents: where the arbitrary picks its filter values. */
  const byCountry = new Map<Country, Served[]>();

  beforeAll(async () => {
    await ensureDoctorsIndex(search.client, alias, { shards: 2, replicas: 0 });
    const { rows } = projectRawEvents(generateEvents({ count: 2_000, seed: 41 }), SITE_ORIGIN);
    const operations = [...rows.values()].flatMap(({ placeId, stateVersion, document }) => [
      { index: { _index: alias, _id: placeId, version: stateVersion, version_type: 'external' as const } },
      document,
    ]);
    const response = await search.client.bulk({ operations, refresh: true });
    if (response.errors) throw new Error('bulk indexing of the sample data failed');
    for (const { document } of rows.values()) {
      if (!document.served) continue;
      byCountry.set(document.country, [...(byCountry.get(document.country) ?? []), document]);
    }
  }, 60_000);
  afterAll(() => search.cleanup());

  /** Every value of a facet in a dataset, each once. */
  const candidates = (country: Country, name: FacetName) => [
    ...new Set((byCountry.get(country) ?? []).flatMap((document) => valuesOf(name, document))),
  ];

  /** A search: a dataset, some of the faceted filters set to values of its records, maybe q and relevance. */
  const searches = () => {
    const countries = [...byCountry.keys()].sort();
    return fc.constantFrom(...countries).chain((country) => {
      // Each filter is set one time in four, so most searches keep records to count.
      const sometimes = <Value>(arbitrary: fc.Arbitrary<Value>) =>
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });
      const pick = (name: FacetName) => sometimes(fc.constantFrom(...candidates(country, name)));
      return fc
        .record({
          filters: fc.record({
            specialty: pick('specialty'),
            city: pick('city'),
            verified: sometimes(fc.boolean()),
            whatsapp: sometimes(fc.boolean()),
            language: pick('language'),
            acceptingNewPatients: sometimes(fc.boolean()),
            wheelchairAccessible: sometimes(fc.boolean()),
            insurance: pick('insurance'),
            openNow: sometimes(fc.constant(true)),
            q: sometimes(fc.constantFrom('praxis', 'dr', 'clinica', 'centro', 'studio', 'med')),
            // A filter without a facet applies to every facet alike.
            openAt: sometimes(fc.constantFrom('2026-03-02T10:00:00+01:00', '2026-03-07T19:30:00Z')),
          }),
          sort: sometimes(fc.constant('relevance' as const)),
          facetLimit: fc.integer({ min: 1, max: 12 }),
          // Cities are many (about one a record): the brute force tries the listed ones and a few others.
          cityProbes: fc.subarray(candidates(country, 'city'), { maxLength: 6 }),
        })
        .map(({ filters: set, ...rest }) => ({
          ...rest,
          filters: {
            country,
            ...Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)),
          },
        }));
    });
  };

  it(`holds for ${RUNS} random searches`, async () => {
    const seed = process.env.FACETS_SEED === undefined ? undefined : Number(process.env.FACETS_SEED);
    // Searches whose facets list more than one value somewhere: the property must not hold only vacuously.
    let informative = 0;
    await fc.assert(
      fc.asyncProperty(searches(), async ({ facetLimit, sort, cityProbes, filters }) => {
        const request = {
          ...filters,
          limit: 1,
          ...(sort === undefined ? {} : { sort }),
          facets: { names: [...FACET_NAMES], limit: facetLimit },
        } as SearchRequest;
        const page = await directory.searchDoctors(request, REQUEST_TIME);
        const facets = page.facets ?? {};
        // What the brute force tries for a facet: every value of the dataset, for cities the listed and probed.
        const probes = (name: FacetName): Array<string | boolean> =>
          name === 'city'
            ? [...new Set([...(facets.city ?? []).map(({ value }) => value), ...cityProbes])]
            : candidates(filters.country, name);

        // The brute force: one counted search per value each facet could list, in one multi-search.
        const tried = FACET_NAMES.flatMap((name) => probes(name).map((value) => ({ name, value })));
        const bodies = tried.flatMap(({ name, value }) => {
          // A relevance search's shard preference goes in the multi-search header, not the body.
          const { preference, ...body } = buildSearchRequest(
            { ...filters, [name]: value },
            1,
            undefined,
            REQUEST_TIME,
            {},
            { ...(sort === undefined ? {} : { sort }), count: true },
          );
          // Only the total is read: the same query, no hits fetched, so no order either.
          const counting = { query: body.query, track_total_hits: body.track_total_hits, size: 0 };
          return [{ index: alias, ...(preference === undefined ? {} : { preference }) }, counting];
        });
        const answers = await search.client.msearch({ searches: bodies });
        const recount = new Map<string, number>();
        answers.responses.forEach((answer, index) => {
          const { name, value } = tried[index] ?? {};
          if (!('hits' in answer) || name === undefined)
            throw new Error(`recount failed: ${JSON.stringify(answer)}`);
          const total = answer.hits.total;
          recount.set(`${name}=${String(value)}`, typeof total === 'number' ? total : (total?.value ?? -1));
        });

        if (FACET_NAMES.some((name) => (facets[name]?.length ?? 0) > 1)) informative += 1;
        for (const name of FACET_NAMES) {
          const listed: FacetValue[] = facets[name] ?? [];
          expect(listed.length, name).toBeLessThanOrEqual(facetLimit);
          for (const { value, count } of listed) {
            expect(count, `${name}=${String(value)}`).toBe(recount.get(`${name}=${String(value)}`));
          }
          const counts = listed.map(({ count }) => count);
          expect(counts, `${name} most records first`).toEqual([...counts].sort((a, b) => b - a));
          // A value with records is listed, unless the limit was reached by values with as many or more.
          const fewest = counts[counts.length - 1] ?? 0;
          const shown = new Set(listed.map(({ value }) => String(value)));
          for (const value of probes(name)) {
            const found = recount.get(`${name}=${String(value)}`) ?? 0;
            if (found === 0 || shown.has(String(value))) continue;
            expect(listed.length, `${name}=${String(value)} (${found}) left out`).toBe(facetLimit);
            expect(found, `${name}=${String(value)} left out`).toBeLessThanOrEqual(fewest);
          }
        }
      }),
      { numRuns: RUNS, ...(seed === undefined ? {} : { seed }) },
    );
    expect(informative).toBeGreaterThan(RUNS / 2);
  }, 240_000);
});
