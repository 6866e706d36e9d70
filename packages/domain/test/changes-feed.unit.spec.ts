import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOf } from './fixtures.js';
import {
  CHANGES_CURSOR_REASONS,
  FEED_START,
  decodeChangesCursor,
  encodeChangesCursor,
} from '../src/changes/changes-cursor.js';
import { toChangesPage, type FeedRow } from '../src/changes/changes-page.js';
import { parseChangesParams } from '../src/changes/changes-params.js';
import type { Doctor } from '../src/doctor.js';
import { encodeCursor } from '../src/search/cursor.js';

const SECRET = 'unit-test-cursor-secret-0123456789abcdef';
const xid = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const placeId = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);

describe('changes cursor', () => {
  it('round-trips every position, bound to its country', () => {
    fc.assert(
      fc.property(xid, fc.oneof(placeId, fc.constant('')), (x, id) => {
        const token = encodeChangesCursor({ xid: x, placeId: id }, 'de', SECRET);
        expect(decodeChangesCursor(token, 'de', SECRET)).toEqual({
          ok: true,
          value: { xid: x, placeId: id },
        });
        expect(decodeChangesCursor(token, 'es', SECRET)).toEqual({
          ok: false,
          error: CHANGES_CURSOR_REASONS.otherCountry,
        });
      }),
    );
  });

  it('refuses any altered character, another secret, and a search cursor', () => {
    const token = encodeChangesCursor({ xid: '123456', placeId: 'abc' }, 'it', SECRET);
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom('A', 'b', '_', '-', '.'), (at, char) => {
        fc.pre(token[at] !== char);
        const altered = token.slice(0, at) + char + token.slice(at + 1);
        expect(decodeChangesCursor(altered, 'it', SECRET).ok).toBe(false);
      }),
    );
    const foreign = encodeChangesCursor({ xid: '1', placeId: 'a' }, 'it', `${SECRET}-other`);
    expect(decodeChangesCursor(foreign, 'it', SECRET)).toEqual({
      ok: false,
      error: CHANGES_CURSOR_REASONS.badSignature,
    });
    const search = encodeCursor({ after: ['name', 'abc'], filters: { country: 'it' } }, SECRET);
    expect(decodeChangesCursor(search, 'it', SECRET)).toEqual({
      ok: false,
      error: CHANGES_CURSOR_REASONS.badSignature,
    });
    expect(decodeChangesCursor('', 'it', SECRET).ok).toBe(false);
    expect(decodeChangesCursor('a.b.c', 'it', SECRET).ok).toBe(false);
  });

  it('refuses a signed payload whose position is not a feed position', () => {
    // Signed with the right secret but out of range: never reaches the database as an xid8 cast error.
    for (const bad of [
      { xid: String(2n ** 64n), placeId: 'a' },
      { xid: '-1', placeId: 'a' },
      { xid: '01', placeId: 'a' },
      { xid: '1', placeId: 'has space' },
    ]) {
      const token = encodeChangesCursor(bad, 'de', SECRET);
      expect(decodeChangesCursor(token, 'de', SECRET)).toEqual({
        ok: false,
        error: CHANGES_CURSOR_REASONS.malformed,
      });
    }
  });
});

describe('changes parameters', () => {
  it('accepts country (any case), since and limit, with the feed defaults', () => {
    expect(parseChangesParams({ country: 'DE' })).toEqual({ ok: true, value: { country: 'de', limit: 100 } });
    expect(parseChangesParams({ country: 'pt', since: 'x.y', limit: '1000' })).toEqual({
      ok: true,
      value: { country: 'pt', since: 'x.y', limit: 1000 },
    });
  });

  it('reports every bad parameter at once, never echoing a key', () => {
    const result = parseChangesParams({
      limit: '0',
      since: ['a', 'b'],
      cursor: 'c',
      api_key: 'dk_live_secret',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.map((error) => [error.parameter, kindOf(error)])).toEqual([
      ['since', 'repeated_parameter'],
      ['cursor', 'unknown_parameter'],
      ['api_key', 'key_in_query'],
      ['country', 'missing_parameter'],
      ['limit', 'invalid_value'],
    ]);
    expect(JSON.stringify(result.error)).not.toContain('dk_live_secret');
  });

  it('bounds limit to 1..1000 digits and since to 1..2048 characters', () => {
    for (const limit of ['0', '1001', '-1', '1.5', ' 5', 'ten']) {
      expect(parseChangesParams({ country: 'de', limit }).ok, limit).toBe(false);
    }
    expect(parseChangesParams({ country: 'de', since: '' }).ok).toBe(false);
    expect(parseChangesParams({ country: 'de', since: 'a'.repeat(2049) }).ok).toBe(false);
    expect(parseChangesParams({ country: 'de', since: 'a'.repeat(2048) }).ok).toBe(true);
  });
});

describe('changes page', () => {
  const doctor = { id: 'a', name: 'A' } as Doctor;
  const row = (placeId: string, x: string, served: boolean): FeedRow => ({
    position: { xid: x, placeId },
    served,
    doctor: served ? { ...doctor, id: placeId } : null,
  });

  it('maps rows to upserts and deletes, and resumes after the last one returned', () => {
    const rows = [row('a', '10', true), row('b', '10', false), row('c', '12', true)];
    const page = toChangesPage(rows, 2, 'de', FEED_START, SECRET);
    expect(page.changes).toEqual([
      { id: 'a', change: 'upsert', doctor: { ...doctor, id: 'a' } },
      { id: 'b', change: 'delete', doctor: null },
    ]);
    expect(page.page).toMatchObject({ count: 2, hasMore: true });
    expect(decodeChangesCursor(page.page.nextCursor, 'de', SECRET)).toEqual({
      ok: true,
      value: { xid: '10', placeId: 'b' },
    });
    expect(toChangesPage(rows, 3, 'de', FEED_START, SECRET).page.hasMore).toBe(false);
  });

  it('returns the cursor it was given when nothing is new', () => {
    const from = { xid: '99', placeId: 'z' };
    const page = toChangesPage([], 100, 'es', from, SECRET);
    expect(page).toEqual({
      changes: [],
      page: { count: 0, hasMore: false, nextCursor: encodeChangesCursor(from, 'es', SECRET) },
    });
  });
});
