import { describe, expect, it } from 'vitest';
import { DOCTOR_ID_REASON, parseDoctorId } from '../src/places/doctor-id.js';
import { toDoctor } from '../src/places/doctor.js';
import { parseFields } from '../src/requests/record-shape.js';
import {
  MAX_BATCH_IDS,
  MAX_IDS_LENGTH,
  parseDoctorIds,
  planBatch,
  toDoctorBatch,
  type BatchEntry,
  withMergedIds,
  withSubstitutedEntries,
} from '../src/search/doctor-batch.js';
import { IDS_CONFLICT_REASON, parseDoctorsQuery } from '../src/search/search-params.js';
import { SITE_ORIGIN, servedState } from './fixtures.js';

const URL_DE = `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-dr-mueller`;
const URL_EN = `${SITE_ORIGIN}/en/doctors/de/berlin/praxis-dr-mueller`;
const PROFILE = { country: 'de', citySlug: 'berlin', profileSlug: 'praxis-dr-mueller' } as const;

function entriesOf(entries: string[]): BatchEntry[] {
  const parsed = parseDoctorIds(entries, SITE_ORIGIN);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

describe('parseDoctorId (single get and every batch entry)', () => {
  it('reads place ids and profile URLs in any page language', () => {
    expect(parseDoctorId('ChIJ_a-1', SITE_ORIGIN)).toEqual({ ok: true, value: { placeId: 'ChIJ_a-1' } });
    expect(parseDoctorId(URL_DE, SITE_ORIGIN)).toEqual({ ok: true, value: { profile: PROFILE } });
    expect(parseDoctorId(URL_EN, SITE_ORIGIN)).toEqual({ ok: true, value: { profile: PROFILE } });
  });

  it('refuses bad ids, foreign URLs and over-long input with the reasons of single get', () => {
    expect(parseDoctorId('bad id', SITE_ORIGIN)).toEqual({ ok: false, error: DOCTOR_ID_REASON });
    expect(parseDoctorId('a'.repeat(129), SITE_ORIGIN)).toEqual({ ok: false, error: DOCTOR_ID_REASON });
    expect(parseDoctorId('https://evil.example/de/aerzte/de/berlin/x', SITE_ORIGIN)).toEqual({
      ok: false,
      error: 'profile URL must be on site.example',
    });
    expect(parseDoctorId(`${SITE_ORIGIN}/${'a'.repeat(2048)}`, SITE_ORIGIN)).toEqual({
      ok: false,
      error: 'must be at most 2048 characters',
    });
  });
});

describe('parseDoctorIds', () => {
  it('keeps ids and URLs mixed, in order, each distinct entry once', () => {
    expect(entriesOf(['b', URL_DE, 'a', 'b', URL_DE, URL_EN])).toEqual([
      { entry: 'b', ref: { placeId: 'b' } },
      { entry: URL_DE, ref: { profile: PROFILE } },
      { entry: 'a', ref: { placeId: 'a' } },
      { entry: URL_EN, ref: { profile: PROFILE } },
    ]);
  });

  it('reports every bad entry by its 1-based position, never quoting it', () => {
    expect(parseDoctorIds(['ok', '', 'bad id', 'https://evil.example/x', 'ok2'], SITE_ORIGIN)).toEqual({
      ok: false,
      error: [
        { parameter: 'ids', reason: 'entry 2 is empty' },
        { parameter: 'ids', reason: `entry 3: ${DOCTOR_ID_REASON}` },
        { parameter: 'ids', reason: 'entry 4: profile URL must be on site.example' },
      ],
    });
  });
});

describe('parseDoctorsQuery: ids', () => {
  const ids = (count: number) => Array.from({ length: count }, (_, index) => `id-${index}`).join(',');

  it('is a batch with fields and lang; country is not required', () => {
    expect(parseDoctorsQuery({ ids: `a,${URL_DE}`, fields: 'name', lang: 'fr' })).toEqual({
      ok: true,
      value: { kind: 'batch', ids: ['a', URL_DE], shape: { fields: ['id', 'name'], lang: 'fr' } },
    });
    expect(parseDoctorsQuery({ ids: 'a' })).toEqual({
      ok: true,
      value: { kind: 'batch', ids: ['a'], shape: {} },
    });
  });

  it(`takes ${MAX_BATCH_IDS} entries and refuses ${MAX_BATCH_IDS + 1}`, () => {
    expect(parseDoctorsQuery({ ids: ids(MAX_BATCH_IDS) })).toMatchObject({ ok: true });
    expect(parseDoctorsQuery({ ids: ids(MAX_BATCH_IDS + 1) })).toEqual({
      ok: false,
      error: [
        { parameter: 'ids', reason: 'must list at most 100 entries; split the batch into several requests' },
      ],
    });
  });

  it(`refuses more than ${MAX_IDS_LENGTH} characters in all, and an empty ids`, () => {
    const long = Array.from({ length: 17 }, () => `${SITE_ORIGIN}/de/aerzte/de/berlin/${'p'.repeat(1000)}`);
    expect(long.join(',').length).toBeGreaterThan(MAX_IDS_LENGTH);
    expect(parseDoctorsQuery({ ids: long.join(',') })).toEqual({
      ok: false,
      error: [
        {
          parameter: 'ids',
          reason: `must be at most ${MAX_IDS_LENGTH} characters; split the batch into several requests`,
        },
      ],
    });
    expect(parseDoctorsQuery({ ids: long.slice(0, 15).join(',') })).toMatchObject({ ok: true });
    expect(parseDoctorsQuery({ ids: '' })).toMatchObject({
      ok: false,
      error: [
        { parameter: 'ids', reason: expect.stringMatching(/^must list 1 to 100 doctor ids/) as string },
      ],
    });
  });

  it('refuses every search filter, limit and cursor by name, with every other bad parameter', () => {
    const result = parseDoctorsQuery({
      ids: 'a',
      country: 'de',
      near: '1,2',
      limit: '5',
      cursor: 'x',
      lang: 'xx',
      extra: '1',
    });
    expect(result).toEqual({
      ok: false,
      error: [
        {
          parameter: 'extra',
          reason:
            'is not a known parameter (known: country, city, q, whatsapp, verified, near, radius, specialty, openAt, openNow, limit, cursor, fields, lang, ids; names are case-sensitive)',
        },
        { parameter: 'lang', reason: 'must be one of en, de, es, fr, it, pt' },
        ...['country', 'near', 'limit', 'cursor'].map((parameter) => ({
          parameter,
          reason: IDS_CONFLICT_REASON,
        })),
      ],
    });
    expect(parseDoctorsQuery({ ids: ['a', 'b'] })).toEqual({
      ok: false,
      error: [{ parameter: 'ids', reason: 'must be given once' }],
    });
  });

  it('leaves a request without ids a search, with fields and lang', () => {
    expect(parseDoctorsQuery({ country: 'de', fields: 'name', lang: 'it' })).toEqual({
      ok: true,
      value: { kind: 'search', request: { country: 'de', limit: 25, fields: ['id', 'name'], lang: 'it' } },
    });
  });
});

describe('planBatch and toDoctorBatch', () => {
  const mueller = toDoctor(servedState(), { siteOrigin: SITE_ORIGIN });
  const other = { ...mueller, id: 'other', name: 'Other' };

  it('asks one search: ids as post-filtered hits, each distinct profile as one aggregation bucket', () => {
    const plan = planBatch(entriesOf(['a', URL_DE, 'b', URL_EN, 'a']), {});
    expect(plan.placeIds).toEqual(['a', 'b']);
    expect(plan.profiles).toEqual([PROFILE]);
    expect(plan.body).toMatchObject({
      size: 2,
      post_filter: { ids: { values: ['a', 'b'] } },
      _source: ['doctor', 'placeId'],
      query: { bool: { filter: [{ term: { served: true } }], minimum_should_match: 1 } },
      aggs: {
        profiles: {
          filters: { filters: [{ bool: { filter: [{ term: { country: 'de' } }, {}, {}] } }] },
          aggs: { first: { top_hits: { size: 1, sort: [{ placeId: 'asc' }] } } },
        },
      },
    });
    const fields = parseFields('openingHours');
    if (!fields.ok) throw new Error(fields.error);
    expect(planBatch(entriesOf(['a']), { fields: fields.value }).body).toMatchObject({
      _source: ['doctor', 'extras', 'placeId'],
    });
    expect(planBatch(entriesOf(['a']), {}).body).not.toHaveProperty('aggs');
  });

  it('answers records once each in request order, and the entries that found none as sent', () => {
    const plan = planBatch(entriesOf(['nope', URL_DE, 'other', 'de-x', URL_EN, mueller.id, 'other']), {
      lang: 'es',
    });
    const batch = toDoctorBatch(
      plan,
      {
        hits: [
          { _source: { doctor: other, placeId: 'other' } },
          { _source: { doctor: mueller, placeId: mueller.id } },
        ],
        profileBuckets: [
          { first: { hits: { hits: [{ _source: { doctor: mueller, placeId: mueller.id } }] } } },
        ],
      },
      { lang: 'es' },
    );
    expect(batch.doctors.map((doctor) => doctor.id)).toEqual([mueller.id, 'other']);
    expect(batch.doctors[0]?.profileUrl).toBe(`${SITE_ORIGIN}/es/medicos/de/berlin/praxis-dr-mueller`);
    expect(batch.missing).toEqual(['nope', 'de-x']);
  });

  it('answers every entry missing when no index stands behind the alias', () => {
    const plan = planBatch(entriesOf(['a', URL_DE]), {});
    expect(toDoctorBatch(plan, undefined, {})).toEqual({ doctors: [], missing: ['a', URL_DE] });
  });
});

describe('merged ids in a batch (API 1.4)', () => {
  const batch = { doctors: [], missing: ['pl_old', 'https://site.example/de/aerzte/de/berlin/x', 'pl_gone'] };
  const forward = (placeId: string, mergedInto: string) =>
    [placeId, { placeId, mergedInto, mergedAt: '2026-02-01T00:00:00.000Z' }] as const;

  it('maps each merged-away id to its survivor, in missing order, keeping it in missing', () => {
    const merged = withMergedIds(batch, new Map([forward('pl_gone', 'pl_b'), forward('pl_old', 'pl_a')]));
    expect(merged).toEqual({ ...batch, merged: { pl_old: 'pl_a', pl_gone: 'pl_b' } });
    expect(Object.keys(merged.merged ?? {})).toEqual(['pl_old', 'pl_gone']);
  });

  it('leaves a batch without merged-away ids exactly as it was', () => {
    expect(withMergedIds(batch, new Map())).toBe(batch);
  });
});

describe('profile URLs of merged-away records in a batch (API 1.4)', () => {
  const OLD_PAGE = `${SITE_ORIGIN}/de/aerzte/de/berlin/praxis-alt`;
  const GONE_PAGE = `${SITE_ORIGIN}/en/doctors/de/berlin/praxis-weg`;
  const doctor = (id: string) => ({ id });

  it('reports the entries as first sent: a replaced entry is missing when what replaced it is', () => {
    const substitutes = new Map([
      [OLD_PAGE, 'pl_survivor'],
      [GONE_PAGE, 'pl_unserved'],
    ]);
    // Asked again as [pl_a, pl_survivor, nope, pl_unserved, pl_survivor]: one record, two missing.
    const answer = { doctors: [doctor('pl_a'), doctor('pl_survivor')], missing: ['nope', 'pl_unserved'] };
    const entries = ['pl_a', OLD_PAGE, 'nope', GONE_PAGE, OLD_PAGE];
    expect(withSubstitutedEntries(entries, substitutes, answer)).toEqual({
      doctors: answer.doctors,
      missing: ['nope', GONE_PAGE],
    });
  });

  it('keeps an entry named both directly and through a page missing once each', () => {
    const answer = { doctors: [], missing: ['pl_unserved'] };
    const entries = [GONE_PAGE, 'pl_unserved'];
    expect(withSubstitutedEntries(entries, new Map([[GONE_PAGE, 'pl_unserved']]), answer)).toEqual({
      doctors: [],
      missing: [GONE_PAGE, 'pl_unserved'],
    });
  });
});
