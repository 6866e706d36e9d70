import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@directory/database';
import {
  FEED_START,
  decodeChangesCursor,
  doctorDigest,
  documentDigest,
  encodeChangesCursor,
  feedFromFence,
  snapshotStart,
  toChangesPage,
  toSearchDocument,
  type ChangesPage,
  type CountryCode,
  type FeedCursor,
  type FeedPosition,
  type FeedRow,
  type PlaceProjection,
} from '@directory/domain';
import {
  SITE_ORIGIN,
  createTestDatabase,
  placeState,
  waitForFeedFence,
  type TestDatabase,
} from '@directory/testing';
import { readChanges, readFeedPage, readSnapshotHorizon } from '../src/changes.repository.js';
import { feedFenceAt, recordFeedClock } from '../src/feed-clock.repository.js';
import { replacePlaceStates, savePlaceStates } from '../src/places.repository.js';

type Shape = { country: CountryCode } | 'tombstone';

function placeRow(placeId: string, version: number, shape: Shape): PlaceProjection {
  const state = placeState({
    id: placeId,
    name: `${placeId} v${version}`,
    version,
    ...(shape === 'tombstone' ? { suppressed: true } : { country: shape.country }),
  });
  return { placeId, stateVersion: version, document: toSearchDocument(state, { siteOrigin: SITE_ORIGIN }) };
}

/** The whole feed of a country after a position, read in small pages the way a consumer would. */
async function drain(db: Database, country: CountryCode, from: FeedPosition = FEED_START) {
  const rows: FeedRow[] = [];
  let after = from;
  for (;;) {
    const page = await readChanges(db, { country, after, limit: 3 });
    if (page.length === 0) return { rows, after };
    rows.push(...page);
    after = page[page.length - 1]?.position ?? after;
  }
}

const summary = (rows: FeedRow[]) =>
  rows.map((row) => `${row.position.placeId} ${row.served ? (row.doctor?.name ?? '?') : 'delete'}`);

/** What the properties' writers do: one to three of six places each, served in de or es, or removed. */
const SHAPE = fc.oneof(
  fc.constant<Shape>('tombstone'),
  fc.constantFrom<CountryCode>('de', 'es').map((country): Shape => ({ country })),
);
const TRANSACTION = fc.uniqueArray(
  fc.record({ place: fc.constantFrom<string>('p0', 'p1', 'p2', 'p3', 'p4', 'p5'), shape: SHAPE }),
  { minLength: 1, maxLength: 3, selector: (write) => write.place },
);

const CURSOR_SECRET = 'event-store-feed-cursor-secret-0123456789';
type Entry = ChangesPage['changes'][number];
const entrySummary = (entries: Entry[]) =>
  entries.map((entry) => `${entry.id} ${entry.doctor === null ? 'delete' : (entry.doctor.name ?? '?')}`);

/** The cursor a page handed out, as the route reads it back. */
function cursorOf(token: string, country: CountryCode): FeedCursor {
  const decoded = decodeChangesCursor(token, country, CURSOR_SECRET);
  if (!decoded.ok) throw new Error(decoded.error);
  return decoded.value;
}

/**
 * One page the way `GET /api/v1/changes` makes it: a new consumer (no cursor) starts from a snapshot.
 * Returns the page and the cursor to send next.
 */
async function feedPage(db: Database, country: CountryCode, since: string | undefined, limit: number) {
  const from =
    since === undefined ? snapshotStart(await readSnapshotHorizon(db, country)) : cursorOf(since, country);
  return toChangesPage(await readFeedPage(db, { country, from, limit }), limit, country, from, CURSOR_SECRET);
}

/** Pages until nothing more is ready; returns what came and the cursor to resume from. */
async function consume(db: Database, country: CountryCode, since?: string, limit = 2) {
  const entries: Entry[] = [];
  let cursor = since;
  for (;;) {
    const page = await feedPage(db, country, cursor, limit);
    entries.push(...page.changes);
    cursor = page.page.nextCursor;
    if (!page.page.hasMore) return { entries, cursor };
  }
}

/** Opens a transaction that takes its id at once and stays open until `release()`. */
async function holdTransactionOpen(db: Database): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let hasXid!: () => void;
  const started = new Promise<void>((resolve) => (hasXid = resolve));
  const held = db.transaction().execute(async (trx) => {
    await sql`select pg_current_xact_id()`.execute(trx);
    hasXid();
    await released;
  });
  await started;
  return {
    release: async () => {
      release();
      await held;
    },
  };
}

describe('changes feed (places table, migration 0005)', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase('changes-feed');
    // Writers hold transactions open concurrently: more connections than the default.
    db = createDatabase(database.url, { maxConnections: 16 });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });
  beforeEach(async () => {
    await sql`truncate places, place_departures, feed_clock`.execute(db);
  });

  it('lists served places as upserts, leaves never-served ones out, and shows a removal as delete', async () => {
    await savePlaceStates(db, [
      placeRow('a', 1, { country: 'de' }),
      placeRow('b', 1, 'tombstone'),
      placeRow('c', 1, { country: 'es' }),
    ]);
    await waitForFeedFence(db);
    const first = await drain(db, 'de');
    expect(summary(first.rows)).toEqual(['a a v1']);
    expect(first.rows[0]?.doctor?.id).toBe('a');

    await savePlaceStates(db, [placeRow('a', 2, 'tombstone')]);
    await waitForFeedFence(db);
    const next = await drain(db, 'de', first.after);
    expect(summary(next.rows)).toEqual(['a delete']);
    // A new reader still learns of the removal (a consumer that mirrored `a` before it started over).
    expect(summary((await drain(db, 'de')).rows)).toEqual(['a delete']);
    expect(summary((await drain(db, 'es')).rows)).toEqual(['c c v1']);
  });

  it('adds nothing when a re-crawl or a replay writes what consumers already see', async () => {
    await savePlaceStates(db, [placeRow('a', 1, { country: 'de' }), placeRow('b', 1, 'tombstone')]);
    await waitForFeedFence(db);
    const { after } = await drain(db, 'de');

    // Same public record at a newer version (a re-crawl with identical data), and a replay rewrite.
    const same = placeRow('a', 2, { country: 'de' });
    if (same.document.served) same.document.doctor = { ...same.document.doctor, name: 'a v1' };
    await savePlaceStates(db, [same, placeRow('b', 2, 'tombstone')]);
    await replacePlaceStates(db, [{ ...same, documentJson: JSON.stringify(same.document) }]);
    await waitForFeedFence(db);
    expect((await drain(db, 'de', after)).rows).toEqual([]);

    await savePlaceStates(db, [placeRow('a', 3, { country: 'de' })]);
    await waitForFeedFence(db);
    expect(summary((await drain(db, 'de', after)).rows)).toEqual(['a a v3']);
  });

  it('leaves a row a replay would rewrite unchanged as it is, and rewrites one the refold changed', async () => {
    const state = placeRow('r', 1, { country: 'de' });
    await savePlaceStates(db, [state]);
    const rowVersion = async () =>
      (await sql<{ xmin: string }>`select xmin::text as xmin from places where place_id = 'r'`.execute(db))
        .rows[0]?.xmin;
    // Not even locked: a lock (xmax) would dirty and log the row's page for nothing.
    const rowLocker = async () =>
      (await sql<{ xmax: string }>`select xmax::text as xmax from places where place_id = 'r'`.execute(db))
        .rows[0]?.xmax;
    const before = await rowVersion();
    await replacePlaceStates(db, [{ ...state, documentJson: JSON.stringify(state.document) }]);
    expect(await rowVersion()).toBe(before);
    expect(await rowLocker()).toBe('0');

    // The same document with a merge the refold found: written.
    const merge = { placeId: 'r', mergedInto: 's', mergedAt: '2026-11-01T00:00:00.000Z', profilePage: null };
    await replacePlaceStates(db, [{ ...state, merge, documentJson: JSON.stringify(state.document) }]);
    const merged = await sql<{
      merged_into: string | null;
    }>`select merged_into from places where place_id = 'r'`.execute(db);
    expect(merged.rows[0]?.merged_into).toBe('s');
    const beforeRefold = await rowVersion();
    expect(beforeRefold).not.toBe(before);
    await replacePlaceStates(db, [{ ...state, merge, documentJson: JSON.stringify(state.document) }]);
    expect(await rowVersion()).toBe(beforeRefold);

    const refolded = placeRow('r', 1, { country: 'de' });
    if (refolded.document.served)
      refolded.document.doctor = { ...refolded.document.doctor, name: 'r refolded' };
    await replacePlaceStates(db, [{ ...refolded, documentJson: JSON.stringify(refolded.document) }]);
    expect(await rowVersion()).not.toBe(beforeRefold);
    const stored = await sql<{
      name: string;
    }>`select document -> 'doctor' ->> 'name' as name from places where place_id = 'r'`.execute(db);
    expect(stored.rows[0]?.name).toBe('r refolded');
  });

  it('compares a row written before document digests were kept by its stored document, and stores the digest', async () => {
    const state = placeRow('d', 1, { country: 'de' });
    await savePlaceStates(db, [state]);
    const row = async () =>
      (
        await sql<{ xmin: string; digest: string | null }>`
          select xmin::text as xmin, encode(document_digest, 'hex') as digest
          from places where place_id = 'd'`.execute(db)
      ).rows[0];
    expect((await row())?.digest).toBe(documentDigest(JSON.stringify(state.document)));
    await sql`update places set document_digest = null where place_id = 'd'`.execute(db);
    const withoutDigest = await row();

    // The same document refolded: found unchanged from the stored text, and left as it is.
    await replacePlaceStates(db, [{ ...state, documentJson: JSON.stringify(state.document) }]);
    expect(await row()).toEqual(withoutDigest);

    // A changed one is written, with its digest; a refold of it is then found unchanged by the digest.
    const refolded = {
      ...state.document,
      foldedBy: 'a newer fold',
    } as unknown as PlaceProjection['document'];
    const refoldedJson = JSON.stringify(refolded);
    await replacePlaceStates(db, [{ ...state, document: refolded, documentJson: refoldedJson }]);
    const rewritten = await row();
    expect(rewritten?.xmin).not.toBe(withoutDigest?.xmin);
    expect(rewritten?.digest).toBe(documentDigest(refoldedJson));
    await replacePlaceStates(db, [{ ...state, document: refolded, documentJson: refoldedJson }]);
    expect(await row()).toEqual(rewritten);
  });

  it("compares a row written before doctor digests were kept by its stored doctor, and stores the row's digest", async () => {
    const state = placeRow('g', 1, { country: 'de' });
    await savePlaceStates(db, [state]);
    const digest = async () =>
      (
        await sql<{ digest: string | null }>`
          select encode(doctor_digest, 'hex') as digest from places where place_id = 'g'`.execute(db)
      ).rows[0]?.digest;
    expect(await digest()).toBe(doctorDigest(state.document));
    const forgetDigest = () => sql`update places set doctor_digest = null where place_id = 'g'`.execute(db);
    await waitForFeedFence(db);
    const { after } = await drain(db, 'de');

    // A refold that changes the document but not its doctor: consumers see nothing new.
    await forgetDigest();
    const sameDoctor = {
      ...state.document,
      foldedBy: 'a newer fold',
    } as unknown as PlaceProjection['document'];
    await replacePlaceStates(db, [
      { ...state, document: sameDoctor, documentJson: JSON.stringify(sameDoctor) },
    ]);
    expect(await digest()).toBe(doctorDigest(state.document));
    await waitForFeedFence(db);
    expect((await drain(db, 'de', after)).rows).toEqual([]);

    // One that changes the doctor is seen, from the stored document as from the digest.
    for (const name of ['g renamed', 'g renamed again']) {
      if (name === 'g renamed') await forgetDigest();
      const renamed = placeRow('g', 1, { country: 'de' });
      if (renamed.document.served) renamed.document.doctor = { ...renamed.document.doctor, name };
      await replacePlaceStates(db, [{ ...renamed, documentJson: JSON.stringify(renamed.document) }]);
      expect(await digest()).toBe(doctorDigest(renamed.document));
      await waitForFeedFence(db);
      expect(summary((await drain(db, 'de', after)).rows)).toEqual([`g ${name}`]);
    }
  });

  it('tells the dataset a place left that it is gone there, exactly once', async () => {
    await savePlaceStates(db, [placeRow('a', 1, { country: 'de' }), placeRow('b', 1, { country: 'de' })]);
    await waitForFeedFence(db);
    const de = await drain(db, 'de');

    await savePlaceStates(db, [placeRow('a', 2, { country: 'es' })]);
    // `b` is removed, then moves while removed: de consumers learn of it once, at the removal.
    await savePlaceStates(db, [placeRow('b', 2, 'tombstone')]);
    await savePlaceStates(db, [placeRow('b', 3, { country: 'es' })]);
    await waitForFeedFence(db);
    expect(summary((await drain(db, 'de', de.after)).rows)).toEqual(['a delete', 'b delete']);
    expect(summary((await drain(db, 'de')).rows)).toEqual(['a delete', 'b delete']);
    expect(summary((await drain(db, 'es')).rows)).toEqual(['a a v2', 'b b v3']);

    // Back in de: the departure is superseded by the record itself.
    const es = await drain(db, 'es');
    await savePlaceStates(db, [placeRow('a', 4, { country: 'de' })]);
    await waitForFeedFence(db);
    expect(summary((await drain(db, 'de')).rows)).toEqual(['b delete', 'a a v4']);
    expect(summary((await drain(db, 'es', es.after)).rows)).toEqual(['a delete']);
  });

  /** `a` served in de, then removed; a de reader drains the feed and has read the removal. */
  async function readRemovalOfA() {
    await savePlaceStates(db, [placeRow('a', 1, { country: 'de' })]);
    await savePlaceStates(db, [placeRow('a', 2, 'tombstone')]);
    await waitForFeedFence(db);
    const removed = await drain(db, 'de');
    expect(summary(removed.rows)).toEqual(['a delete']);
    return removed;
  }

  it('shows a removal again, at a later position, to a reader that missed the return in between', async () => {
    const removed = await readRemovalOfA();

    // Served again and removed again before the reader looks: it gets the newest state only.
    await savePlaceStates(db, [placeRow('a', 3, { country: 'de' })]);
    await savePlaceStates(db, [placeRow('a', 4, 'tombstone')]);
    await waitForFeedFence(db);
    const again = await drain(db, 'de', removed.after);
    expect(summary(again.rows)).toEqual(['a delete']);
    expect(BigInt(again.after.xid)).toBeGreaterThan(BigInt(removed.after.xid));
  });

  it('does not repeat a removal the reader already has when the removed place moves to another dataset', async () => {
    const removed = await readRemovalOfA();

    // The departure keeps the removal's position, which this reader has passed; a new reader gets it once.
    await savePlaceStates(db, [placeRow('a', 3, { country: 'es' })]);
    await waitForFeedFence(db);
    expect((await drain(db, 'de', removed.after)).rows).toEqual([]);
    expect(summary((await drain(db, 'de')).rows)).toEqual(['a delete']);
  });

  it('holds back a committed change while an older transaction is still open (the gap)', async () => {
    let releaseOlder!: () => void;
    const olderMayCommit = new Promise<void>((resolve) => (releaseOlder = resolve));
    let olderHasXid!: () => void;
    const olderStarted = new Promise<void>((resolve) => (olderHasXid = resolve));
    const older = db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx); // the smaller transaction id
      olderHasXid();
      await olderMayCommit;
      await savePlaceStates(trx, [placeRow('a', 1, { country: 'de' })]);
    });
    await olderStarted;
    await savePlaceStates(db, [placeRow('b', 1, { country: 'de' })]); // commits first, larger id

    // A plain sequence read would return b now and pass a's position forever.
    const early = await readChanges(db, { country: 'de', after: FEED_START, limit: 10 });
    expect(early).toEqual([]);

    releaseOlder();
    await older;
    await waitForFeedFence(db);
    expect(summary((await drain(db, 'de')).rows)).toEqual(['a a v1', 'b b v1']);
  });

  it('never shows a new consumer a place that stopped being served before it started', async () => {
    // A transaction older than the removals stays open past the consumer's start: the feed's fence (the
    // oldest running transaction) is then below the removals, and must not decide what the consumer sees.
    const older = await holdTransactionOpen(db);
    await savePlaceStates(db, [
      placeRow('gone', 1, { country: 'de' }),
      placeRow('kept', 1, { country: 'de' }),
      placeRow('moved', 1, { country: 'de' }),
    ]);
    await savePlaceStates(db, [placeRow('gone', 2, 'tombstone'), placeRow('moved', 2, { country: 'es' })]);

    const start = await consume(db, 'de', undefined, 1);
    expect(entrySummary(start.entries)).toEqual(['kept kept v1']);
    await older.release();
    await waitForFeedFence(db);
    expect((await consume(db, 'de', start.cursor)).entries).toEqual([]);
    expect(entrySummary((await consume(db, 'es')).entries)).toEqual(['moved moved v2']);

    // A consumer that already read the feed from before the removals still gets them, as before.
    expect(summary((await drain(db, 'de')).rows)).toEqual(['kept kept v1', 'gone delete', 'moved delete']);
  });

  it('sends a removal to a consumer that received the place in its snapshot', async () => {
    await savePlaceStates(
      db,
      ['a', 'b', 'c'].map((id) => placeRow(id, 1, { country: 'de' })),
    );
    const start = await consume(db, 'de', undefined, 2);
    expect(entrySummary(start.entries)).toEqual(['a a v1', 'b b v1', 'c c v1']);

    await savePlaceStates(db, [placeRow('a', 2, 'tombstone')]);
    await savePlaceStates(db, [placeRow('b', 2, { country: 'es' })]);
    await waitForFeedFence(db);
    expect(entrySummary((await consume(db, 'de', start.cursor)).entries)).toEqual(['a delete', 'b delete']);
  });

  it('leaves a change a running transaction makes during the snapshot to the feed after it', async () => {
    // The running transaction is older than the dataset's newest change: the snapshot must not count
    // its changes as shown, whatever it writes after the consumer started.
    let writeNow!: () => void;
    const mayWrite = new Promise<void>((resolve) => (writeNow = resolve));
    let hasXid!: () => void;
    const started = new Promise<void>((resolve) => (hasXid = resolve));
    const running = db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx);
      hasXid();
      await mayWrite;
      await savePlaceStates(trx, [placeRow('a', 2, 'tombstone'), placeRow('n', 2, { country: 'de' })]);
    });
    await started;
    await savePlaceStates(db, [placeRow('a', 1, { country: 'de' }), placeRow('b', 1, { country: 'de' })]);

    const first = await feedPage(db, 'de', undefined, 1);
    expect(entrySummary(first.changes)).toEqual(['a a v1']);
    writeNow();
    await running;
    await waitForFeedFence(db);
    const rest = await consume(db, 'de', first.page.nextCursor, 1);
    expect(entrySummary(rest.entries)).toEqual(['b b v1', 'a delete', 'n n v2']);
  });

  it('brings a consumer that starts while writers commit out of order to exactly what is served', async () => {
    const countries: CountryCode[] = ['de', 'es'];
    const scenario = fc
      .record({
        before: fc.array(TRANSACTION, { minLength: 1, maxLength: 6 }),
        during: fc.array(TRANSACTION, { minLength: 1, maxLength: 5 }),
        // How many of the writers running at the start take their id before the last earlier commit.
        olderThanStart: fc.nat({ max: 5 }),
        pageSize: fc.integer({ min: 1, max: 3 }),
      })
      .chain((value) =>
        fc.record({
          value: fc.constant(value),
          commitOrder: fc.shuffledSubarray(
            value.during.map((_, index) => index),
            { minLength: value.during.length, maxLength: value.during.length },
          ),
        }),
      );

    await fc.assert(
      fc.asyncProperty(
        scenario,
        async ({ value: { before, during, olderThanStart, pageSize }, commitOrder }) => {
          await sql`truncate places, place_departures`.execute(db);
          const gates = during.map(() => {
            let open!: () => void;
            const opened = new Promise<void>((resolve) => (open = resolve));
            return { opened, open };
          });
          const writers: Array<Promise<void>> = [];
          const startWriter = async (index: number) => {
            let hasXid!: () => void;
            const started = new Promise<void>((resolve) => (hasXid = resolve));
            writers.push(
              db.transaction().execute(async (trx) => {
                await sql`select pg_current_xact_id()`.execute(trx);
                hasXid();
                await gates[index]?.opened;
                // Later than every earlier commit: the newest write wins, as the worker's versions do.
                const version = before.length + index + 1;
                const writes = during[index] ?? [];
                await savePlaceStates(
                  trx,
                  writes.map((write) => placeRow(write.place, version, write.shape)),
                );
              }),
            );
            await started;
          };
          const older = Math.min(olderThanStart, during.length);
          for (let index = 0; index < older; index++) await startWriter(index);
          for (const [index, writes] of before.entries()) {
            await savePlaceStates(
              db,
              writes.map((write) => placeRow(write.place, index + 1, write.shape)),
            );
          }
          for (let index = older; index < during.length; index++) await startWriter(index);

          // Each dataset's consumer starts now, and pages while the writers commit one by one.
          const touched = new Set(during.flatMap((writes) => writes.map((write) => write.place)));
          const cursors = new Map<CountryCode, string | undefined>();
          const delivered = new Map<CountryCode, Entry[]>(countries.map((country) => [country, []]));
          const readPage = async (country: CountryCode) => {
            const page = await feedPage(db, country, cursors.get(country), pageSize);
            delivered.get(country)?.push(...page.changes);
            cursors.set(country, page.page.nextCursor);
            return page.changes.length;
          };
          try {
            for (const country of countries) await readPage(country);
            for (const index of commitOrder) {
              gates[index]?.open();
              for (const country of countries) await readPage(country);
            }
          } finally {
            // Even when a read fails: no writer is left open to hold the next run's fence back.
            for (const gate of gates) gate.open();
            await Promise.all(writers);
          }
          await waitForFeedFence(db);
          for (const country of countries) while ((await readPage(country)) > 0);

          const served = await sql<{ place_id: string; country: CountryCode; name: string }>`
          select place_id, document ->> 'country' as country, document -> 'doctor' ->> 'name' as name
          from places where served`.execute(db);
          for (const country of countries) {
            const entries = delivered.get(country) ?? [];
            const mirror = new Map<string, string>();
            for (const entry of entries) {
              if (entry.doctor === null) mirror.delete(entry.id);
              else mirror.set(entry.id, entry.doctor.name ?? '');
            }
            const expected = served.rows
              .filter((row) => row.country === country)
              .map((row) => [row.place_id, row.name] as const);
            expect(mirror, country).toEqual(new Map(expected));
            // Never the same state twice: an upsert names its version, so none may come again; a removal
            // names none, so a place's removal may come again only after it was served in this dataset in
            // between (served, removed, served again, removed again are four states). The served-again
            // state is delivered unless it was superseded before the consumer read its position: the
            // feed gives each record's state as of its newest change, so a removal can then follow a
            // removal, each the record's state at its own position. Only a writer that served the place
            // in this dataset after the start can make that happen.
            const servedAgainHere = new Set(
              during.flatMap((writes) =>
                writes.flatMap((write) =>
                  write.shape !== 'tombstone' && write.shape.country === country ? [write.place] : [],
                ),
              ),
            );
            const states = entrySummary(entries);
            const upserts = states.filter((state) => !state.endsWith(' delete'));
            expect(upserts, country).toEqual([...new Set(upserts)]);
            const lastStateOf = new Map<string, string>();
            for (const [index, entry] of entries.entries()) {
              const repeatedRemoval = entry.doctor === null && servedAgainHere.has(entry.id);
              if (!repeatedRemoval) {
                expect(lastStateOf.get(entry.id), `${country}: ${states.join(', ')}`).not.toBe(states[index]);
              }
              lastStateOf.set(entry.id, states[index] ?? '');
            }
            // A removal only of a place a writer running at or after the start changed.
            for (const entry of entries) {
              if (entry.doctor === null) expect(touched.has(entry.id), `${country} ${entry.id}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 25, interruptAfterTimeLimit: 25_000 },
    );
  });

  it('delivers every change exactly once to a reader polling while writers commit out of order', async () => {
    const scenario = fc.array(TRANSACTION, { minLength: 2, maxLength: 8 }).chain((transactions) =>
      fc.record({
        transactions: fc.constant(transactions),
        commitOrder: fc.shuffledSubarray(
          transactions.map((_, index) => index),
          { minLength: transactions.length, maxLength: transactions.length },
        ),
        pageSize: fc.integer({ min: 1, max: 4 }),
      }),
    );

    await fc.assert(
      fc.asyncProperty(scenario, async ({ transactions, commitOrder, pageSize }) => {
        await sql`truncate places, place_departures`.execute(db);
        const countries: CountryCode[] = ['de', 'es'];
        const mirrors = new Map(countries.map((country) => [country, new Map<string, string>()]));
        // Per dataset and place: each delivered entry's version (or 'delete') and the position it came at.
        const delivered = new Map<string, Array<{ entry: number | 'delete'; xid: bigint }>>();
        const positions = new Map<CountryCode, FeedPosition>(countries.map((c) => [c, FEED_START]));

        async function readOnce(): Promise<number> {
          let read = 0;
          for (const country of countries) {
            const after = positions.get(country) ?? FEED_START;
            const rows = await readChanges(db, { country, after, limit: pageSize });
            for (const row of rows) {
              expect(BigInt(row.position.xid) >= BigInt(after.xid)).toBe(true);
              const mirror = mirrors.get(country);
              const key = `${country} ${row.position.placeId}`;
              const history = delivered.get(key) ?? [];
              if (row.served && row.doctor !== null) {
                mirror?.set(row.position.placeId, row.doctor.name ?? '');
                history.push({
                  entry: Number(row.doctor.name?.split(' v')[1]),
                  xid: BigInt(row.position.xid),
                });
              } else {
                mirror?.delete(row.position.placeId);
                history.push({ entry: 'delete', xid: BigInt(row.position.xid) });
              }
              delivered.set(key, history);
              positions.set(country, row.position);
            }
            read += rows.length;
          }
          return read;
        }

        // Every transaction takes its id at once, writes, then waits for its turn to commit.
        const gates = transactions.map(() => {
          let open!: () => void;
          const opened = new Promise<void>((resolve) => (open = resolve));
          return { opened, open };
        });
        let started = 0;
        const writerXids: bigint[] = [];
        const writers = transactions.map((writes, index) =>
          db.transaction().execute(async (trx) => {
            const own = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(trx);
            writerXids[index] = BigInt(own.rows[0]?.xid ?? '0');
            started += 1;
            const version = index + 1;
            await savePlaceStates(
              trx,
              writes.map((write) => placeRow(write.place, version, write.shape)),
            );
            await gates[index]?.opened;
          }),
        );
        let writing = true;
        const reader = (async () => {
          while (writing) {
            if ((await readOnce()) === 0) await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })();

        while (started < transactions.length) await new Promise((resolve) => setTimeout(resolve, 1));
        for (const index of commitOrder) {
          gates[index]?.open();
          await new Promise((resolve) => setTimeout(resolve, 3));
        }
        await Promise.all(writers);
        writing = false;
        await reader;
        await waitForFeedFence(db);
        while ((await readOnce()) > 0);

        // The mirrors equal what is served, per dataset.
        const served = await sql<{ place_id: string; country: CountryCode; name: string }>`
          select place_id, document ->> 'country' as country, document -> 'doctor' ->> 'name' as name
          from places where served`.execute(db);
        for (const country of countries) {
          const expected = served.rows
            .filter((row) => row.country === country)
            .map((row) => [row.place_id, row.name] as const);
          expect(new Map(expected)).toEqual(mirrors.get(country));
        }
        // No (place, version) twice, and never an older version after a newer one.
        for (const [key, history] of delivered) {
          const versions = history.flatMap(({ entry }) => (entry === 'delete' ? [] : [entry]));
          expect(versions, key).toEqual([...new Set(versions)].sort((x, y) => x - y));
        }
        // A removal twice in a row only when the reader skipped a return in between (intermediate states
        // may be skipped): a transaction served the place in that dataset after the first removal was
        // read. That transaction was still running then, so its id is at or above the reader's fence,
        // above the first removal's position. The same removal delivered twice has no such transaction.
        const servedBy = new Map<string, bigint[]>();
        transactions.forEach((writes, index) => {
          for (const { place, shape } of writes) {
            if (shape === 'tombstone') continue;
            const key = `${shape.country} ${place}`;
            servedBy.set(key, [...(servedBy.get(key) ?? []), writerXids[index] ?? 0n]);
          }
        });
        for (const [key, history] of delivered) {
          for (let i = 1; i < history.length; i++) {
            const [previous, current] = [history[i - 1], history[i]];
            if (previous?.entry !== 'delete' || current?.entry !== 'delete') continue;
            const returned = (servedBy.get(key) ?? []).some((xid) => xid > previous.xid);
            expect(returned, `${key}: removal at ${previous.xid} delivered again at ${current.xid}`).toBe(
              true,
            );
          }
        }
      }),
      { numRuns: 25, interruptAfterTimeLimit: 20_000 },
    );
  });

  it('dates each change with its transaction, removals from a dataset a place left included', async () => {
    const dbNow = async () =>
      (await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db)).rows[0]?.at ?? new Date(0);
    const before = await dbNow();
    await savePlaceStates(db, [placeRow('t', 1, { country: 'de' }), placeRow('u', 1, { country: 'de' })]);
    const between = await dbNow();
    await savePlaceStates(db, [placeRow('t', 2, { country: 'es' })]);
    // A re-crawl with what consumers already see: no new change, no new time.
    const same = placeRow('u', 2, { country: 'de' });
    if (same.document.served) same.document.doctor = { ...same.document.doctor, name: 'u v1' };
    await savePlaceStates(db, [same]);
    const after = await dbNow();
    await waitForFeedFence(db);
    const de = (await drain(db, 'de')).rows;
    const es = (await drain(db, 'es')).rows;
    const timeOf = (rows: FeedRow[], id: string) =>
      Date.parse(rows.find((row) => row.position.placeId === id)?.changedAt ?? '');
    expect(summary(de)).toEqual(['u u v1', 't delete']);
    expect(timeOf(de, 'u')).toBeGreaterThanOrEqual(before.getTime());
    expect(timeOf(de, 'u')).toBeLessThanOrEqual(between.getTime());
    // The removal from de and the upsert in es are the same change, at the same time and version.
    expect(timeOf(de, 't')).toBe(timeOf(es, 't'));
    expect(timeOf(de, 't')).toBeGreaterThanOrEqual(between.getTime());
    expect(timeOf(de, 't')).toBeLessThanOrEqual(after.getTime());
    expect(de.find((row) => row.position.placeId === 't')?.version).toBe(2);
    // The state read is the place's current one (version 2, the same public record as version 1).
    expect(de.find((row) => row.position.placeId === 'u')?.version).toBe(2);
  });

  it('starts a feed at an instant with every change committed after it, whatever order writers commit in', async () => {
    const countries: CountryCode[] = ['de', 'es'];
    // Writers take their ids before the instant (`older`) or after it; of the older ones, some commit
    // before the clock fact, some between it and the instant, the rest after the instant.
    const scenario = fc
      .record({
        before: fc.array(TRANSACTION, { maxLength: 4 }),
        older: fc.array(fc.record({ writes: TRANSACTION, commits: fc.constantFrom(0, 1, 2) }), {
          maxLength: 4,
        }),
        newer: fc.array(TRANSACTION, { maxLength: 3 }),
        pageSize: fc.integer({ min: 1, max: 3 }),
        seed: fc.nat(),
      })
      .filter((value) => value.older.length + value.newer.length > 0);

    await fc.assert(
      fc.asyncProperty(scenario, async ({ before, older, newer, pageSize, seed }) => {
        await sql`truncate places, place_departures, feed_clock`.execute(db);
        let version = 0;
        for (const writes of before) {
          version += 1;
          const at = version;
          await savePlaceStates(
            db,
            writes.map((write) => placeRow(write.place, at, write.shape)),
          );
        }
        const writers: Array<{ commit: () => Promise<void> }> = [];
        const startWriter = async (writes: Array<{ place: string; shape: Shape }>) => {
          version += 1;
          const at = version;
          let open!: () => void;
          const opened = new Promise<void>((resolve) => (open = resolve));
          let hasXid!: () => void;
          const started = new Promise<void>((resolve) => (hasXid = resolve));
          const done = db.transaction().execute(async (trx) => {
            await sql`select pg_current_xact_id()`.execute(trx);
            hasXid();
            await opened;
            await savePlaceStates(
              trx,
              writes.map((write) => placeRow(write.place, at, write.shape)),
            );
          });
          await started;
          const writer = {
            commit: async () => {
              open();
              await done;
            },
          };
          writers.push(writer);
          return writer;
        };
        let mirrors = new Map<CountryCode, Map<string, string>>();
        let readPage = (_country: CountryCode): Promise<number> => Promise.resolve(0);
        const olderWriters = [];
        for (const { writes, commits } of older)
          olderWriters.push({ writer: await startWriter(writes), commits });
        try {
          for (const { writer, commits } of olderWriters) if (commits === 0) await writer.commit();
          await recordFeedClock(db);
          for (const { writer, commits } of olderWriters) if (commits === 1) await writer.commit();
          const instant = (await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db)).rows[0]?.at;
          if (instant === undefined) throw new Error('no clock');
          // What was served at the instant: the mirror a consumer had then.
          const servedAt = await sql<{ place_id: string; country: CountryCode; name: string }>`
            select place_id, document ->> 'country' as country, document -> 'doctor' ->> 'name' as name
            from places where served`.execute(db);
          mirrors = new Map(
            countries.map((country) => [
              country,
              new Map(
                servedAt.rows.filter((row) => row.country === country).map((row) => [row.place_id, row.name]),
              ),
            ]),
          );
          const fence = await feedFenceAt(db, instant);
          const cursors = new Map(
            countries.map((country) => [
              country,
              encodeChangesCursor(feedFromFence(fence), country, CURSOR_SECRET),
            ]),
          );
          readPage = async (country: CountryCode) => {
            const page = await feedPage(db, country, cursors.get(country), pageSize);
            const mirror = mirrors.get(country);
            for (const entry of page.changes) {
              expect(entry.changedAt, entry.id).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
              if (entry.doctor === null) mirror?.delete(entry.id);
              else mirror?.set(entry.id, entry.doctor.name ?? '');
            }
            cursors.set(country, page.page.nextCursor);
            return page.changes.length;
          };
          for (const writes of newer) await startWriter(writes);
          // The rest commit in an order the seed shuffles, the consumers paging in between.
          const pending = [
            ...olderWriters.filter(({ commits }) => commits === 2).map(({ writer }) => writer),
            ...writers.slice(older.length),
          ];
          const shuffled =
            fc.sample(fc.shuffledSubarray(pending, { minLength: pending.length }), {
              seed,
              numRuns: 1,
            })[0] ?? pending;
          for (const country of countries) await readPage(country);
          for (const writer of shuffled) {
            await writer.commit();
            for (const country of countries) await readPage(country);
          }
        } finally {
          await Promise.all(writers.map((writer) => writer.commit()));
        }
        await waitForFeedFence(db);
        const served = await sql<{ place_id: string; country: CountryCode; name: string }>`
          select place_id, document ->> 'country' as country, document -> 'doctor' ->> 'name' as name
          from places where served`.execute(db);
        for (const country of countries) {
          while ((await readPage(country)) > 0);
          const expected = served.rows
            .filter((row) => row.country === country)
            .map((row) => [row.place_id, row.name] as const);
          expect(mirrors.get(country), country).toEqual(new Map(expected));
        }
      }),
      { numRuns: 60, interruptAfterTimeLimit: 25_000 },
    );
  });
});
