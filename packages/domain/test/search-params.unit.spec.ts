import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filtersOf } from '../src/search/search-filters.js';
import {
  KEY_IN_QUERY_REASON,
  keyInQueryErrors,
  type ParameterError,
} from '../src/requests/query-parameters.js';
import type { Result } from '../src/shared/result.js';
import {
  parseBatchGetQuery,
  parseSearchParams,
  parseSearchToolInput,
  type SearchParams,
} from '../src/search/search-params.js';
import { kindOf } from './fixtures.js';

function errorsOf(result: Result<SearchParams, ParameterError[]>) {
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const hasKeyInQuery = (errors: ParameterError[]) => errors.some((error) => kindOf(error) === 'key_in_query');

function valueOf(result: Result<SearchParams, ParameterError[]>) {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('parseSearchParams: good values', () => {
  it.each([
    [{ country: 'de' }, { country: 'de', limit: 25 }],
    [{ country: 'DE' }, { country: 'de', limit: 25 }],
    [{ country: 'Pt' }, { country: 'pt', limit: 25 }],
    [{ country: 'mx' }, { country: 'mx', limit: 25 }],
    [
      { country: 'es', city: 'san-sebastian' },
      { country: 'es', city: 'san-sebastian', limit: 25 },
    ],
    [
      { country: 'es', city: 'a1' },
      { country: 'es', city: 'a1', limit: 25 },
    ],
    [
      { country: 'it', q: '  Dr. Müller  ' },
      { country: 'it', q: 'Dr. Müller', limit: 25 },
    ],
    [
      { country: 'it', q: '   ' },
      { country: 'it', limit: 25 },
    ],
    [
      { country: 'it', q: '' },
      { country: 'it', limit: 25 },
    ],
    [
      { country: 'it', q: 'x'.repeat(100) },
      { country: 'it', q: 'x'.repeat(100), limit: 25 },
    ],
    // 100 characters that are 200 UTF-16 units and 400 UTF-8 bytes.
    [
      { country: 'it', q: '😀'.repeat(100) },
      { country: 'it', q: '😀'.repeat(100), limit: 25 },
    ],
    [
      { country: 'de', whatsapp: 'true' },
      { country: 'de', whatsapp: true, limit: 25 },
    ],
    [
      { country: 'de', whatsapp: 'false' },
      { country: 'de', whatsapp: false, limit: 25 },
    ],
    [
      { country: 'de', verified: 'true' },
      { country: 'de', verified: true, limit: 25 },
    ],
    [
      { country: 'de', verified: 'false' },
      { country: 'de', verified: false, limit: 25 },
    ],
    [
      { country: 'de', limit: '1' },
      { country: 'de', limit: 1 },
    ],
    [
      { country: 'de', limit: '100' },
      { country: 'de', limit: 100 },
    ],
    [
      { country: 'de', limit: '007' },
      { country: 'de', limit: 7 },
    ],
    [
      { country: 'de', cursor: 'abc.def' },
      { country: 'de', limit: 25, cursor: 'abc.def' },
    ],
    [
      { country: 'de', cursor: 'c'.repeat(2048) },
      { country: 'de', limit: 25, cursor: 'c'.repeat(2048) },
    ],
    [
      { country: 'de', city: undefined },
      { country: 'de', limit: 25 },
    ],
  ])('%j → %j', (raw, expected) => {
    expect(valueOf(parseSearchParams(raw))).toEqual(expected);
  });
});

describe('parseSearchParams: bad values', () => {
  it.each([
    ['country', {}, 'missing_parameter', /is required/],
    ['country', { country: 'fr ' }, 'invalid_value', /must be one of/],
    ['country', { country: 'at' }, 'invalid_value', /must be one of de, es, fr, gb, it, mx, pt/],
    ['country', { country: '' }, 'invalid_value', /must be one of/],
    ['city', { country: 'de', city: 'Berlin' }, 'invalid_value', /lowercase slug/],
    ['city', { country: 'de', city: 'bad--homburg' }, 'invalid_value', /lowercase slug/],
    ['city', { country: 'de', city: '-berlin' }, 'invalid_value', /lowercase slug/],
    ['city', { country: 'de', city: 'köln' }, 'invalid_value', /lowercase slug/],
    ['city', { country: 'de', city: '' }, 'invalid_value', /lowercase slug/],
    ['q', { country: 'de', q: 'x'.repeat(101) }, 'invalid_value', /at most 100 characters/],
    ['q', { country: 'de', q: '😀'.repeat(101) }, 'invalid_value', /at most 100 characters/],
    ['whatsapp', { country: 'de', whatsapp: 'TRUE' }, 'invalid_value', /true or false/],
    ['whatsapp', { country: 'de', whatsapp: '1' }, 'invalid_value', /true or false/],
    ['whatsapp', { country: 'de', whatsapp: '' }, 'invalid_value', /true or false/],
    ['verified', { country: 'de', verified: 'yes' }, 'invalid_value', /true or false/],
    ['limit', { country: 'de', limit: '0' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '101' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '-1' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '2.5' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: ' 5' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '1e1' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '' }, 'invalid_value', /integer from 1 to 100/],
    ['limit', { country: 'de', limit: '9'.repeat(400) }, 'invalid_value', /integer from 1 to 100/],
    ['cursor', { country: 'de', cursor: '' }, 'invalid_value', /must not be empty/],
    ['cursor', { country: 'de', cursor: 'c'.repeat(2049) }, 'invalid_value', /at most 2048/],
    ['country', { country: 5 }, 'invalid_value', /single text value/],
  ])('%s in %j → %s', (parameter, raw, code, reason) => {
    const errors = errorsOf(parseSearchParams(raw));
    expect(errors).toHaveLength(1);
    expect({ parameter: errors[0]?.parameter, code: kindOf(errors[0]) }).toEqual({ parameter, code });
    expect(errors[0]?.reason).toMatch(reason);
  });

  it('rejects a repeated parameter, with one error for it', () => {
    const errors = errorsOf(parseSearchParams({ country: ['de', 'de'], limit: ['5', '6'] }));
    expect(errors).toEqual([
      { parameter: 'country', reason: 'must be given once' },
      { parameter: 'limit', reason: 'must be given once' },
    ]);
    expect(errors.map(kindOf)).toEqual(['repeated_parameter', 'repeated_parameter']);
  });

  it('names every unknown parameter, case-sensitively', () => {
    const errors = errorsOf(parseSearchParams({ country: 'de', citty: 'berlin', Country: 'de', page: '2' }));
    expect(errors.map((error) => [error.parameter, kindOf(error)])).toEqual([
      ['citty', 'unknown_parameter'],
      ['Country', 'unknown_parameter'],
      ['page', 'unknown_parameter'],
    ]);
    expect(errors[0]?.reason).toMatch(/not a known parameter/);
  });

  it('reports every bad parameter at once', () => {
    const errors = errorsOf(
      parseSearchParams({
        country: 'xx',
        city: 'Berlin',
        q: 'q'.repeat(101),
        whatsapp: 'yes',
        verified: 'no',
        limit: '0',
        cursor: '',
        sort: 'rating',
      }),
    );
    expect(errors.map((error) => error.parameter).sort()).toEqual(
      ['city', 'country', 'cursor', 'limit', 'q', 'sort', 'verified', 'whatsapp'].sort(),
    );
  });
});

describe('parseSearchParams: keys in the query string', () => {
  const secret = 'dk_live_0123456789abcdefghijABCDEFGHIJ0123456789abcdef';
  const keyNames = [
    'api_key',
    'apikey',
    'key',
    'x-api-key',
    'access_token',
    'token',
    'API_KEY',
    'X-Api-Key',
    'Token',
  ];

  it.each(keyNames)('%s → key_in_query, without the value anywhere', (name) => {
    const result = parseSearchParams({ country: 'de', [name]: secret });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(hasKeyInQuery(result.error)).toBe(true);
    expect(result.error).toEqual([{ parameter: name, reason: KEY_IN_QUERY_REASON }]);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain('0123456789abcdef');
  });

  it('keyInQueryErrors reports exactly the key_in_query errors of a full parse, and nothing else', () => {
    const query = { api_key: secret, country: 'zz', colour: 'red', Token: 'x' };
    const full = errorsOf(parseSearchParams(query)).filter((error) => kindOf(error) === 'key_in_query');
    expect(keyInQueryErrors(query)).toEqual(full);
    expect(full).toHaveLength(2);
    expect(keyInQueryErrors({ country: 'zz', colour: 'red' })).toEqual([]);
  });

  it('flags a key even when repeated, and still reports the other errors', () => {
    const result = parseSearchParams({ api_key: [secret, secret], country: 'zz' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(hasKeyInQuery(result.error)).toBe(true);
    expect(result.error.map(kindOf).sort()).toEqual(['invalid_value', 'key_in_query']);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it.each([
    ['live', secret],
    ['test', secret.replace('dk_live_', 'dk_test_')],
  ])('redacts a %s secret pasted as a parameter name', (_mode, pasted) => {
    const result = parseSearchParams({ country: 'de', [pasted]: '' });
    expect(result).toMatchObject({ ok: false });
    expect(hasKeyInQuery(errorsOf(result))).toBe(true);
    expect(JSON.stringify(result)).not.toContain(pasted.slice(8));
  });

  it('never echoes any value, whatever the parameters', () => {
    const marker = 'SECRETVALUE';
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'country',
            'city',
            'q',
            'whatsapp',
            'verified',
            'limit',
            'cursor',
            'api_key',
            'other',
          ),
          fc.oneof(
            fc.string().map((text) => marker + text),
            fc.array(
              fc.string().map((text) => marker + text),
              { minLength: 2, maxLength: 3 },
            ),
          ),
        ),
        (raw) => {
          expect(JSON.stringify(parseSearchParams(raw))).not.toContain(marker);
        },
      ),
    );
  });

  it('has no false positives for ordinary parameters', () => {
    expect(valueOf(parseSearchParams({ country: 'de', q: 'key' })).q).toBe('key');
  });
});

describe('parseSearchToolInput', () => {
  it('takes typed values and applies the same rules', () => {
    expect(
      valueOf(
        parseSearchToolInput({
          country: 'ES',
          city: 'madrid',
          q: ' dent ',
          whatsapp: true,
          verified: false,
          limit: 5,
        }),
      ),
    ).toEqual({
      country: 'es',
      city: 'madrid',
      q: 'dent',
      whatsapp: true,
      verified: false,
      limit: 5,
      suggestions: true,
    });
    expect(valueOf(parseSearchToolInput({ country: 'de' }))).toEqual({
      country: 'de',
      limit: 25,
      suggestions: true,
    });
  });

  it('asks for suggestions unless told not to, while the query string asks only when told to', () => {
    expect(valueOf(parseSearchToolInput({ country: 'de', suggestions: false }))).toEqual({
      country: 'de',
      limit: 25,
    });
    expect(valueOf(parseSearchParams({ country: 'de' }))).toEqual({ country: 'de', limit: 25 });
    expect(valueOf(parseSearchParams({ country: 'de', suggestions: 'false' }))).toEqual({
      country: 'de',
      limit: 25,
    });
    expect(valueOf(parseSearchParams({ country: 'de', suggestions: 'true' }))).toEqual({
      country: 'de',
      limit: 25,
      suggestions: true,
    });
  });

  it('treats null as absent', () => {
    expect(valueOf(parseSearchToolInput({ country: 'de', city: null, limit: null, cursor: null }))).toEqual({
      country: 'de',
      limit: 25,
      suggestions: true,
    });
  });

  it('rejects text where JSON types are expected, and reports all at once', () => {
    const errors = errorsOf(
      parseSearchToolInput({
        country: 'xx',
        whatsapp: 'true',
        verified: 1,
        limit: '5',
        cursor: '',
        extra: 1,
      }),
    );
    expect(errors.map((error) => error.parameter).sort()).toEqual(
      ['country', 'cursor', 'extra', 'limit', 'verified', 'whatsapp'].sort(),
    );
  });

  it.each([0, 101, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects limit %s', (limit) => {
    const errors = errorsOf(parseSearchToolInput({ country: 'de', limit }));
    expect(errors).toMatchObject([{ parameter: 'limit' }]);
    expect(errors.map(kindOf)).toEqual(['invalid_value']);
  });

  it('flags key-like arguments and non-object input', () => {
    expect(parseSearchToolInput({ country: 'de', apiKey: 'x' })).toMatchObject({ ok: false });
    expect(hasKeyInQuery(errorsOf(parseSearchToolInput({ country: 'de', apiKey: 'x' })))).toBe(true);
    expect(parseSearchToolInput('country=de')).toMatchObject({ ok: false });
    expect(hasKeyInQuery(errorsOf(parseSearchToolInput('country=de')))).toBe(false);
    expect(parseSearchToolInput(null)).toMatchObject({ ok: false });
  });
});

describe('filtersOf', () => {
  it('keeps the filters and drops paging and absent values', () => {
    expect(filtersOf({ country: 'de', city: 'berlin', limit: 5, cursor: 'c' })).toEqual({
      country: 'de',
      city: 'berlin',
    });
    expect(
      Object.keys(filtersOf({ country: 'de', q: 'x', whatsapp: false, verified: true, limit: 1 })).sort(),
    ).toEqual(['country', 'q', 'verified', 'whatsapp']);
  });
});

describe('parseBatchGetQuery (GET /api/v1/doctors:batchGet)', () => {
  it('reads ids, fields and lang', () => {
    expect(parseBatchGetQuery({ ids: 'a,b', fields: 'phone', lang: 'DE' })).toEqual({
      ok: true,
      value: { ids: ['a', 'b'], shape: { fields: ['id', 'phone'], lang: 'de' } },
    });
    expect(parseBatchGetQuery({ ids: 'a' })).toEqual({ ok: true, value: { ids: ['a'], shape: {} } });
  });

  it('needs ids, and calls every other parameter unknown, search ones included', () => {
    const missing = parseBatchGetQuery({});
    expect(missing.ok ? [] : missing.error.map((error) => error.parameter)).toEqual(['ids']);
    const unknown = parseBatchGetQuery({ ids: 'a', country: 'de', limit: '5' });
    expect(unknown.ok ? [] : unknown.error).toEqual(
      ['country', 'limit'].map((parameter) => ({
        parameter,
        reason: 'is not a known parameter (known: ids, fields, lang; names are case-sensitive)',
      })),
    );
  });
});
