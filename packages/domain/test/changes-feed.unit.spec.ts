import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOf } from './fixtures.js';
import {
  CHANGES_CURSOR_REASONS,
  HORIZON_RUNNING_MAX,
  decodeChangesCursor,
  encodeChangesCursor,
  feedAfterSnapshot,
  feedCursorAt,
  snapshotHorizon,
  snapshotStart,
  type FeedCursor,
  type SnapshotHorizon,
} from '../src/changes/changes-cursor.js';
import {
  changesToRead,
  feedPartOf,
  toChangesPage,
  type FeedRead,
  type FeedRow,
  type ListedPlace,
} from '../src/changes/changes-page.js';
import { parseChangesParams } from '../src/changes/changes-params.js';
import { exportChangesCursor } from '../src/changes/export-params.js';
import type { Doctor } from '../src/places/doctor.js';
import { encodeCursor } from '../src/search/cursor.js';
import { CURSOR_MAX_LENGTH } from '../src/requests/page-bounds.js';
import { signToken } from '../src/shared/signed-token.js';

const SECRET = 'unit-test-cursor-secret-0123456789abcdef';
const xid = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const placeId = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
const horizon = fc
  .tuple(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.array(xid, { maxLength: HORIZON_RUNNING_MAX + 5 }))
  .map(([upTo, running]) => snapshotHorizon(String(upTo), running));

describe('changes cursor', () => {
  const feedAt = (x: string, id: string, timed = false): FeedCursor => ({
    kind: 'feed',
    position: { xid: x, placeId: id },
    shown: null,
    timed,
  });

  it('round-trips every feed position, bound to its country', () => {
    fc.assert(
      fc.property(xid, fc.oneof(placeId, fc.constant('')), (x, id) => {
        const token = encodeChangesCursor(feedAt(x, id), 'de', SECRET);
        expect(decodeChangesCursor(token, 'de', SECRET)).toEqual({ ok: true, value: feedAt(x, id) });
        expect(decodeChangesCursor(token, 'es', SECRET)).toEqual({
          ok: false,
          error: CHANGES_CURSOR_REASONS.otherCountry,
        });
      }),
    );
  });

  it('round-trips timed (API 1.3) feed cursors as timed, and signs untimed ones without the flag', () => {
    fc.assert(
      fc.property(xid, fc.oneof(placeId, fc.constant('')), (x, id) => {
        const timed = encodeChangesCursor(feedAt(x, id, true), 'de', SECRET);
        expect(decodeChangesCursor(timed, 'de', SECRET)).toEqual({ ok: true, value: feedAt(x, id, true) });
        expect(timed).not.toBe(encodeChangesCursor(feedAt(x, id), 'de', SECRET));
      }),
    );
    // A flag other than 1, or on a snapshot cursor, is not a cursor this deployment issued.
    for (const body of [
      { v: 1, x: '5', p: 'a', c: 'de', t: 2 },
      { v: 1, x: '5', p: 'a', c: 'de', t: true },
      { v: 1, s: { u: '5', r: [] }, p: 'a', c: 'de', t: 1 },
    ]) {
      expect(decodeChangesCursor(signToken(body, 'changes-cursor.', SECRET), 'de', SECRET)).toEqual({
        ok: false,
        error: CHANGES_CURSOR_REASONS.malformed,
      });
    }
  });

  it('reads a cursor issued before snapshots existed as the same feed position, and issues it unchanged', () => {
    fc.assert(
      fc.property(xid, fc.oneof(placeId, fc.constant('')), (x, id) => {
        // The payload feed cursors have always had, signed as they always were.
        const old = signToken({ v: 1, x, p: id, c: 'de' }, 'changes-cursor.', SECRET);
        expect(decodeChangesCursor(old, 'de', SECRET)).toEqual({ ok: true, value: feedAt(x, id) });
        expect(encodeChangesCursor(feedAt(x, id), 'de', SECRET)).toBe(old);
      }),
    );
  });

  it("binds a cursor to the key's mode: a test key's cursor is refused with a live key, and the reverse", () => {
    fc.assert(
      fc.property(horizon, fc.oneof(placeId, fc.constant('')), xid, fc.boolean(), (shown, id, x, timed) => {
        for (const cursor of [
          { kind: 'snapshot', horizon: shown, after: id },
          { kind: 'feed', position: { xid: x, placeId: id }, shown, timed },
          feedAt(x, id, timed),
        ] satisfies FeedCursor[]) {
          const test = encodeChangesCursor(cursor, 'de', SECRET, 'test');
          const live = encodeChangesCursor(cursor, 'de', SECRET, 'live');
          expect(decodeChangesCursor(test, 'de', SECRET, 'test')).toEqual({ ok: true, value: cursor });
          expect(decodeChangesCursor(live, 'de', SECRET, 'live')).toEqual({ ok: true, value: cursor });
          expect(decodeChangesCursor(test, 'de', SECRET, 'live')).toEqual({
            ok: false,
            error: CHANGES_CURSOR_REASONS.otherMode.test,
          });
          expect(decodeChangesCursor(live, 'de', SECRET, 'test')).toEqual({
            ok: false,
            error: CHANGES_CURSOR_REASONS.otherMode.live,
          });
          // A live cursor is the form every cursor had before modes: no mode field at all.
          expect(live).toBe(encodeChangesCursor(cursor, 'de', SECRET));
        }
      }),
    );
  });

  it("binds the feed cursor that ends an export to the exporting key's mode", () => {
    const shown = { upTo: '900', running: ['700'] };
    const sandbox = exportChangesCursor(shown, 'de', SECRET, 'test');
    expect(decodeChangesCursor(sandbox, 'de', SECRET, 'test').ok).toBe(true);
    expect(decodeChangesCursor(sandbox, 'de', SECRET, 'live')).toEqual({
      ok: false,
      error: CHANGES_CURSOR_REASONS.otherMode.test,
    });
    expect(decodeChangesCursor(exportChangesCursor(shown, 'de', SECRET), 'de', SECRET, 'live').ok).toBe(true);
  });

  it("reads a cursor without a mode as a live key's, and any other mode as no cursor it issued", () => {
    const old = signToken({ v: 1, x: '42', p: 'abc', c: 'de' }, 'changes-cursor.', SECRET);
    expect(decodeChangesCursor(old, 'de', SECRET, 'live')).toEqual({ ok: true, value: feedAt('42', 'abc') });
    expect(decodeChangesCursor(old, 'de', SECRET, 'test')).toEqual({
      ok: false,
      error: CHANGES_CURSOR_REASONS.otherMode.live,
    });
    for (const m of ['live', 'TEST', 1, null, true]) {
      const body = { v: 1, x: '42', p: 'abc', c: 'de', m };
      for (const mode of ['live', 'test'] as const) {
        expect(decodeChangesCursor(signToken(body, 'changes-cursor.', SECRET), 'de', SECRET, mode)).toEqual({
          ok: false,
          error: CHANGES_CURSOR_REASONS.malformed,
        });
      }
    }
  });

  it('round-trips snapshot cursors and feed cursors under a snapshot horizon, each as its own kind', () => {
    fc.assert(
      fc.property(horizon, fc.oneof(placeId, fc.constant('')), xid, (shown, id, x) => {
        const snapshot: FeedCursor = { kind: 'snapshot', horizon: shown, after: id };
        const token = encodeChangesCursor(snapshot, 'pt', SECRET);
        expect(decodeChangesCursor(token, 'pt', SECRET)).toEqual({ ok: true, value: snapshot });
        const feed: FeedCursor = { kind: 'feed', position: { xid: x, placeId: id }, shown, timed: false };
        expect(decodeChangesCursor(encodeChangesCursor(feed, 'pt', SECRET), 'pt', SECRET)).toEqual({
          ok: true,
          value: feed,
        });
        expect(decodeChangesCursor(token, 'de', SECRET)).toEqual({
          ok: false,
          error: CHANGES_CURSOR_REASONS.otherCountry,
        });
      }),
    );
  });

  it('keeps the longest cursor it can issue within the length since accepts', () => {
    const top = String(2n ** 64n - 1n);
    const running = Array.from({ length: HORIZON_RUNNING_MAX }, (_, at) => String(2n ** 63n + BigInt(at)));
    const widest = { upTo: top, running };
    const id = 'x'.repeat(128);
    for (const cursor of [
      { kind: 'snapshot', horizon: widest, after: id },
      { kind: 'feed', position: { xid: top, placeId: id }, shown: widest, timed: true },
    ] satisfies FeedCursor[]) {
      expect(encodeChangesCursor(cursor, 'de', SECRET, 'test').length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
    }
  });

  it('refuses any altered character, another secret, and a search cursor', () => {
    const snapshot: FeedCursor = {
      kind: 'snapshot',
      horizon: { upTo: '900', running: ['700', '800'] },
      after: 'abc',
    };
    for (const token of [
      encodeChangesCursor(feedAt('123456', 'abc'), 'it', SECRET),
      encodeChangesCursor(snapshot, 'it', SECRET),
    ]) {
      fc.assert(
        fc.property(
          fc.nat({ max: token.length - 1 }),
          fc.constantFrom('A', 'b', '_', '-', '.'),
          (at, char) => {
            fc.pre(token[at] !== char);
            const altered = token.slice(0, at) + char + token.slice(at + 1);
            expect(decodeChangesCursor(altered, 'it', SECRET).ok).toBe(false);
          },
        ),
      );
    }
    const foreign = encodeChangesCursor(feedAt('1', 'a'), 'it', `${SECRET}-other`);
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
      const token = encodeChangesCursor(
        { kind: 'feed', position: bad, shown: null, timed: false },
        'de',
        SECRET,
      );
      expect(decodeChangesCursor(token, 'de', SECRET)).toEqual({
        ok: false,
        error: CHANGES_CURSOR_REASONS.malformed,
      });
    }
  });

  it('refuses a signed snapshot horizon it would not have issued', () => {
    const tooMany = Array.from({ length: HORIZON_RUNNING_MAX + 1 }, (_, at) => String(at + 1));
    for (const s of [
      null,
      'x',
      [],
      { u: '10' },
      { u: '10', r: 'x' },
      { u: 10, r: [] },
      { u: '10', r: ['5', '3'] }, // not ascending
      { u: '10', r: ['5', '5'] },
      { u: '10', r: ['11'] }, // above upTo
      { u: '10', r: ['01'] },
      { u: String(2n ** 64n), r: [] },
      { u: '100', r: tooMany },
    ]) {
      for (const payload of [
        { v: 1, s, p: 'a', c: 'de' },
        { v: 1, x: '5', p: 'a', c: 'de', s },
      ]) {
        const token = signToken(payload, 'changes-cursor.', SECRET);
        expect(decodeChangesCursor(token, 'de', SECRET), JSON.stringify(payload)).toEqual({
          ok: false,
          error: CHANGES_CURSOR_REASONS.malformed,
        });
      }
    }
    // Neither a position nor a snapshot.
    const neither = signToken({ v: 1, p: 'a', c: 'de' }, 'changes-cursor.', SECRET);
    expect(decodeChangesCursor(neither, 'de', SECRET).ok).toBe(false);
  });
});

describe('snapshot horizon', () => {
  /** Whether the feed after the snapshot delivers changes by transaction `x` (those it did not show). */
  const delivered = (shown: SnapshotHorizon, x: bigint) =>
    x > BigInt(shown.upTo) || shown.running.includes(String(x));

  it('keeps the running transactions up to its newest change, ascending, at most HORIZON_RUNNING_MAX', () => {
    expect(snapshotHorizon('50', ['60', '7', '40', '7'])).toEqual({ upTo: '50', running: ['7', '40'] });
    expect(snapshotHorizon('0', ['3', '4'])).toEqual({ upTo: '0', running: [] });
    const many = Array.from({ length: HORIZON_RUNNING_MAX + 5 }, (_, at) => String(100 + 2 * at));
    const cut = snapshotHorizon('1000', many);
    expect(cut.running).toEqual(many.slice(0, HORIZON_RUNNING_MAX));
    // Just below the first running transaction left out: the feed delivers it, and what followed it.
    expect(cut.upTo).toBe(String(100 + 2 * HORIZON_RUNNING_MAX - 1));
  });

  it('never claims to have shown a change a running transaction makes (a cut list only shows less)', () => {
    const ids = fc.bigInt({ min: 3n, max: 400n });
    fc.assert(
      fc.property(ids, fc.array(ids, { maxLength: 90, size: 'max' }), (upTo, running) => {
        const shown = snapshotHorizon(String(upTo), running.map(String));
        for (const x of [...running, upTo + 1n, upTo + 50n])
          expect(delivered(shown, x), String(x)).toBe(true);
        // What it keeps is a horizon the cursor accepts back.
        const token = encodeChangesCursor({ kind: 'snapshot', horizon: shown, after: '' }, 'de', SECRET);
        expect(decodeChangesCursor(token, 'de', SECRET).ok).toBe(true);
      }),
    );
  });

  it('hands over to the feed at its oldest running transaction, or just past its newest change', () => {
    expect(feedAfterSnapshot({ upTo: '50', running: [] })).toEqual({
      kind: 'feed',
      position: { xid: '51', placeId: '' },
      shown: null,
      timed: false,
    });
    const busy = { upTo: '50', running: ['20', '40'] };
    const after = feedAfterSnapshot(busy, { timed: true });
    expect(after).toEqual({ kind: 'feed', position: { xid: '20', placeId: '' }, shown: busy, timed: true });
    // The horizon is carried while the position is within it, and dropped once past it; timed stays.
    expect(feedCursorAt({ xid: '50', placeId: 'z' }, after)).toMatchObject({ shown: busy, timed: true });
    expect(feedCursorAt({ xid: '51', placeId: 'a' }, after)).toMatchObject({ shown: null, timed: true });
  });
});

describe('changes parameters', () => {
  it('accepts country (any case), since and limit, with the feed defaults', () => {
    expect(parseChangesParams({ country: 'DE' })).toEqual({
      ok: true,
      value: { country: 'de', limit: 100, start: { kind: 'snapshot' }, merges: false },
    });
    expect(parseChangesParams({ country: 'pt', since: 'x.y', limit: '1000' })).toEqual({
      ok: true,
      value: { country: 'pt', limit: 1000, start: { kind: 'cursor', token: 'x.y' }, merges: false },
    });
  });

  it('reads since as an instant when it is one (it holds a colon, which no cursor does)', () => {
    for (const [since, iso] of [
      ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.000Z'],
      ['2026-11-01T01:30+01:00', '2026-11-01T00:30:00.000Z'],
      ['2026-11-01T00:00:00.250-02:00', '2026-11-01T02:00:00.250Z'],
    ] as const) {
      const parsed = parseChangesParams({ country: 'de', since });
      expect(parsed.ok && parsed.value.start, since).toEqual({ kind: 'instant', at: new Date(iso) });
    }
    // A time without an offset, a date alone with a colon-free form, and nonsense with a colon are refused.
    for (const since of ['2026-11-01T00:00:00', '2026-13-01T00:00:00Z', 'abc:def', '2026-11-01T25:00Z']) {
      const parsed = parseChangesParams({ country: 'de', since });
      expect(parsed.ok, since).toBe(false);
      if (!parsed.ok) expect(parsed.error[0]?.reason, since).toContain('ISO 8601');
    }
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
    version: Number(x),
    changedAt: `2026-11-01T00:00:${x.padStart(2, '0').slice(-2)}.000Z`,
    mergedInto: null,
  });
  const listedPlace = (placeId: string): ListedPlace => ({ placeId, doctor: { ...doctor, id: placeId } });
  const feedFrom = (x: string, id: string, timed = false): FeedCursor => ({
    kind: 'feed',
    position: { xid: x, placeId: id },
    shown: null,
    timed,
  });
  const decoded = (token: string, country: 'de' | 'es' = 'de') => decodeChangesCursor(token, country, SECRET);

  it('maps rows to upserts and deletes, and resumes after the last one returned', () => {
    const changes = [row('a', '10', true), row('b', '10', false), row('c', '12', true)];
    const from = feedFrom('0', '');
    const page = toChangesPage({ listed: [], changes }, 2, 'de', from, SECRET);
    expect(page.changes).toEqual([
      { id: 'a', change: 'upsert', doctor: { ...doctor, id: 'a' } },
      { id: 'b', change: 'delete', doctor: null },
    ]);
    expect(page.page).toMatchObject({ count: 2, hasMore: true });
    expect(decoded(page.page.nextCursor)).toEqual({ ok: true, value: feedFrom('10', 'b') });
    expect(toChangesPage({ listed: [], changes }, 3, 'de', from, SECRET).page.hasMore).toBe(false);
  });

  it('dates every entry of a timed feed, and keeps the feed timed in its next cursor', () => {
    const changes = [row('a', '10', true), row('b', '11', false)];
    const page = toChangesPage({ listed: [], changes }, 5, 'de', feedFrom('0', '', true), SECRET);
    expect(page.changes).toEqual([
      { id: 'a', change: 'upsert', doctor: { ...doctor, id: 'a' }, changedAt: '2026-11-01T00:00:10.000Z' },
      { id: 'b', change: 'delete', doctor: null, changedAt: '2026-11-01T00:00:11.000Z' },
    ]);
    expect(decoded(page.page.nextCursor)).toEqual({ ok: true, value: feedFrom('11', 'b', true) });
    // The same rows in a 1.2 feed: no changedAt (the 1.2 entries, byte for byte).
    const untimed = toChangesPage({ listed: [], changes }, 5, 'de', feedFrom('0', ''), SECRET);
    expect(untimed.changes.every((entry) => !('changedAt' in entry))).toBe(true);
  });

  it('names the survivor of a merged-away record only in a feed that asked for merges', () => {
    const changes = [
      row('a', '10', true),
      { ...row('b', '11', false), mergedInto: 'a' },
      row('c', '12', false),
    ];
    const asked = toChangesPage({ listed: [], changes }, 5, 'de', feedFrom('0', '', true), SECRET, 'live', {
      merges: true,
    });
    expect(asked.changes.slice(1)).toEqual([
      { id: 'b', change: 'merged', doctor: null, mergedInto: 'a', changedAt: '2026-11-01T00:00:11.000Z' },
      { id: 'c', change: 'delete', doctor: null, changedAt: '2026-11-01T00:00:12.000Z' },
    ]);
    // Without merges: the delete it always was, byte for byte.
    const plain = toChangesPage({ listed: [], changes }, 5, 'de', feedFrom('0', ''), SECRET);
    expect(JSON.stringify(plain.changes[1])).toBe('{"id":"b","change":"delete","doctor":null}');
  });

  it('accepts merges=true and merges=false, and nothing else', () => {
    expect(parseChangesParams({ country: 'de' })).toMatchObject({ ok: true, value: { merges: false } });
    expect(parseChangesParams({ country: 'de', merges: 'true' })).toMatchObject({
      ok: true,
      value: { merges: true },
    });
    expect(parseChangesParams({ country: 'de', merges: 'false' })).toMatchObject({
      ok: true,
      value: { merges: false },
    });
    expect(parseChangesParams({ country: 'de', merges: 'yes' }).ok).toBe(false);
  });

  it('returns the cursor it was given when nothing is new', () => {
    const from = feedFrom('99', 'z');
    const page = toChangesPage({ listed: [], changes: [] }, 100, 'es', from, SECRET);
    expect(page).toEqual({
      changes: [],
      page: { count: 0, hasMore: false, nextCursor: encodeChangesCursor(from, 'es', SECRET) },
    });
  });

  it('lists a snapshot as upserts only, and resumes it after the last place listed', () => {
    const horizon = { upTo: '50', running: ['40'] };
    const from = snapshotStart(horizon);
    expect(changesToRead(3, 2)).toBe(0);
    const page = toChangesPage(
      { listed: ['a', 'b', 'c'].map(listedPlace), changes: [] },
      2,
      'de',
      from,
      SECRET,
    );
    expect(page.changes.map((change) => [change.id, change.change])).toEqual([
      ['a', 'upsert'],
      ['b', 'upsert'],
    ]);
    expect(page.page).toMatchObject({ count: 2, hasMore: true });
    expect(decoded(page.page.nextCursor)).toEqual({
      ok: true,
      value: { kind: 'snapshot', horizon, after: 'b' },
    });
  });

  it('fills the rest of the last snapshot page from the feed after it, so hasMore says whether more is ready', () => {
    const horizon = { upTo: '50', running: ['40'] };
    const from: FeedCursor = { kind: 'snapshot', horizon, after: 'b' };
    expect(feedPartOf(from)).toEqual(feedAfterSnapshot(horizon));
    expect(changesToRead(1, 3)).toBe(3);
    const listed = [listedPlace('c')];
    const changes = [row('x', '40', false), row('d', '60', true), row('e', '61', true)];
    const page = toChangesPage({ listed, changes }, 3, 'de', from, SECRET);
    expect(page.changes.map((change) => [change.id, change.change])).toEqual([
      ['c', 'upsert'],
      ['x', 'delete'],
      ['d', 'upsert'],
    ]);
    expect(page.page).toMatchObject({ count: 3, hasMore: true });
    // Past the horizon: a plain feed cursor, as issued to any consumer.
    expect(decoded(page.page.nextCursor)).toEqual({ ok: true, value: feedFrom('60', 'd') });

    // Within it: the horizon travels on.
    const within = toChangesPage({ listed, changes }, 2, 'de', from, SECRET);
    expect(decoded(within.page.nextCursor)).toEqual({
      ok: true,
      value: { kind: 'feed', position: { xid: '40', placeId: 'x' }, shown: horizon, timed: false },
    });

    // The snapshot exactly fills the page and nothing follows: the next cursor is where the feed takes over.
    const exact = toChangesPage({ listed, changes: [] }, 1, 'de', from, SECRET);
    expect(exact.page).toMatchObject({ count: 1, hasMore: false });
    expect(decoded(exact.page.nextCursor)).toEqual({ ok: true, value: feedAfterSnapshot(horizon) });
    expect(toChangesPage({ listed, changes: changes.slice(0, 1) }, 1, 'de', from, SECRET).page.hasMore).toBe(
      true,
    );
  });

  it('delivers a snapshot and then every change it did not show, once each, in order, at any page sizes', () => {
    // A store that does not change while read: one row per place (its xid, served or not), and a horizon.
    const store = fc.uniqueArray(
      fc.record({
        placeId: fc.stringMatching(/^[a-h]$/),
        xid: fc.integer({ min: 3, max: 30 }),
        served: fc.boolean(),
      }),
      { selector: (place) => place.placeId, maxLength: 8 },
    );
    const shape = fc.record({
      rows: store,
      upTo: fc.integer({ min: 0, max: 30 }),
      running: fc.uniqueArray(fc.integer({ min: 3, max: 30 }), { maxLength: 4 }),
      limits: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
    });
    fc.assert(
      fc.property(shape, ({ rows, upTo, running, limits }) => {
        const horizon = snapshotHorizon(String(upTo), running.map(String));
        const showsXid = (x: number) => x <= Number(horizon.upTo) && !horizon.running.includes(String(x));
        const byId = [...rows].sort((a, b) => (a.placeId < b.placeId ? -1 : 1));
        const byFeed = [...rows].sort((a, b) => a.xid - b.xid || (a.placeId < b.placeId ? -1 : 1));
        // The reads readFeedPage makes, over the store.
        const read = (from: FeedCursor, limit: number): FeedRead => {
          const listed =
            from.kind === 'snapshot'
              ? byId
                  .filter((p) => p.served && showsXid(p.xid) && p.placeId > from.after)
                  .slice(0, limit + 1)
                  .map((p) => listedPlace(p.placeId))
              : [];
          const wanted = changesToRead(listed.length, limit);
          const feed = feedPartOf(from);
          const after = feed.position;
          const changes = byFeed
            .filter(
              (p) => p.xid > Number(after.xid) || (p.xid === Number(after.xid) && p.placeId > after.placeId),
            )
            .filter((p) => feed.shown === null || !showsXid(p.xid))
            .slice(0, wanted)
            .map((p) => row(p.placeId, String(p.xid), p.served));
          return { listed, changes };
        };

        const got: string[] = [];
        let from = snapshotStart(horizon);
        for (let at = 0; ; at += 1) {
          const limit = limits[at % limits.length] as number;
          const page = toChangesPage(read(from, limit), limit, 'de', from, SECRET);
          expect(page.page.count).toBe(page.changes.length);
          expect(page.changes.length).toBeLessThanOrEqual(limit);
          got.push(...page.changes.map((change) => `${change.id} ${change.change}`));
          const next = decoded(page.page.nextCursor);
          if (!next.ok) throw new Error(next.error);
          from = next.value;
          if (!page.page.hasMore) break;
          // A page that says more follows is never empty.
          expect(page.changes.length).toBeGreaterThan(0);
        }
        const expected = [
          ...byId.filter((p) => p.served && showsXid(p.xid)).map((p) => `${p.placeId} upsert`),
          ...byFeed
            .filter((p) => !showsXid(p.xid))
            .map((p) => `${p.placeId} ${p.served ? 'upsert' : 'delete'}`),
        ];
        expect(got).toEqual(expected);
        // Nothing more: the same cursor comes back.
        const idle = toChangesPage(read(from, 3), 3, 'de', from, SECRET);
        expect(idle.changes).toEqual([]);
        expect(decoded(idle.page.nextCursor)).toEqual({ ok: true, value: from });
      }),
    );
  });
});
