import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeadLetters, recordDeadLetters, recordProjectionFailures } from '@directory/event-store';
import { ensureDoctorsIndex } from '@directory/search-index';
import type { ProjectorDependencies } from '@directory/ingest';
import {
  crawled,
  createTestDatabase,
  createTestSearch,
  published,
  startProcess,
  type TestDatabase,
} from '@directory/testing';
import { redriveDeadLetters } from '../src/redrive.service.js';

const SITE = 'https://www.doctor-directory.example';

describe('dead letters: inspect and re-drive', () => {
  let database: TestDatabase;
  const search = createTestSearch('dead-letters');
  const alias = `${search.prefix}_doctors`;
  let deps: ProjectorDependencies;

  beforeAll(async () => {
    database = await createTestDatabase('dead-letters');
    await ensureDoctorsIndex(search.client, alias);
    deps = { db: database.db, search: { client: search.client, alias }, siteOrigin: SITE };
    // Two letters rejected by an earlier, stricter schema (they are valid now), and one still broken.
    await recordDeadLetters(database.db, [
      { raw: crawled('D1', 1, '2026-01-01T10:00:00Z'), reason: 'old schema: rating', source: 'file:1' },
      { raw: published('D1', '2026-01-01T11:00:00Z'), reason: 'old schema: slug', source: 'file:2' },
      {
        raw: { eventId: 'broken', placeId: 'D2', type: 'place.closed' },
        reason: 'missing fields',
        source: 'file:3',
      },
    ]);
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('re-drives what is valid now, keeps what is not pending with its reason, and is idempotent', async () => {
    const first = await redriveDeadLetters(deps, 'all');
    expect(first.redriven).toBe(2);
    expect(first.stored).toBe(2);
    expect(first.stillInvalid).toHaveLength(1);
    expect(first.stillInvalid[0]?.reason).toMatch(/occurredAt|schemaVersion|payload/);

    await search.client.indices.refresh({ index: alias });
    const document = await search.client.get<{ served: boolean }>({ index: alias, id: 'D1' });
    expect(document._source?.served).toBe(true);

    const pending = await listDeadLetters(database.db);
    expect(pending.map((letter) => letter.source)).toEqual(['file:3']);

    const second = await redriveDeadLetters(deps, 'all');
    expect(second).toMatchObject({ redriven: 0, stored: 0 });
    const events = await database.db.selectFrom('events').select('event_id').execute();
    expect(events).toHaveLength(2);

    // Re-driving an already re-driven letter by id is a no-op too.
    const all = await listDeadLetters(database.db, { includeRedriven: true });
    const redrivenIds = all.filter((letter) => letter.redrivenAt !== null).map((letter) => letter.id);
    expect(await redriveDeadLetters(deps, redrivenIds)).toMatchObject({ redriven: 0, stored: 0 });
  });

  it('stores any payload a producer sends, \\u0000 and lone surrogates included, exactly as sent', async () => {
    const nul = { eventId: 'nul\u0000id', placeId: 'D3', name: 'a\u0000b' };
    const text = 'not json \u0000 \ud800';
    await recordDeadLetters(database.db, [
      { raw: nul, reason: 'bad\u0000reason', source: 'file:4' },
      { raw: text, reason: 'not valid JSON', source: 'file:5' },
    ]);
    const letters = await listDeadLetters(database.db, { includeRedriven: true });
    expect(letters.find((letter) => letter.source === 'file:4')?.raw).toEqual(nul);
    expect(letters.find((letter) => letter.source === 'file:5')?.raw).toBe(text);
  });

  it('lists and shows dead letters from the operator command', async () => {
    const env = { DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias };
    const list = startProcess('packages/operator/src/dead-letters.cli.ts', ['list'], env);
    expect(await list.exited).toBe(0);
    expect(list.output()).toMatch(/pending\tbroken\tfile:3\tmissing fields/);

    const [letter] = await listDeadLetters(database.db);
    const show = startProcess('packages/operator/src/dead-letters.cli.ts', ['show', String(letter?.id)], env);
    expect(await show.exited).toBe(0);
    expect(show.output()).toMatch(/"reason": "missing fields"/);

    const redrive = startProcess(
      'packages/operator/src/dead-letters.cli.ts',
      ['redrive', String(letter?.id)],
      env,
    );
    expect(await redrive.exited).toBe(1);
    expect(redrive.output()).toMatch(/still invalid/);
  });

  it('shows producer and index text with its terminal escape sequences escaped, never raw', async () => {
    // Clear the screen, retitle the window, a C1 CSI, a forged line: none may reach the terminal.
    const hostile = '\u001b[2J\u001b]0;owned\u0007\u009b31m\nline 99: fine';
    await recordDeadLetters(database.db, [
      { raw: { eventId: `ev${hostile}`, name: hostile }, reason: `bad ${hostile}`, source: `${hostile}:1` },
    ]);
    await recordProjectionFailures(database.db, [
      { placeId: 'D9', stateVersion: 1, status: 400, errorType: 'x_exception', reason: `quoted ${hostile}` },
    ]);
    const letter = (await listDeadLetters(database.db)).find(
      (pending) => pending.reason === `bad ${hostile}`,
    );
    const env = { DATABASE_URL: database.url, ELASTICSEARCH_INDEX: alias };
    const outputs: string[] = [];
    for (const args of [['list'], ['show', String(letter?.id)], ['projections']]) {
      const command = startProcess('packages/operator/src/dead-letters.cli.ts', args, env);
      expect(await command.exited).toBe(0);
      outputs.push(command.output());
    }
    const [list = '', show = '', projections = ''] = outputs;
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    for (const output of outputs) expect(output).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(list).toContain('\\x1b[2J\\x1b]0;owned\\x07\\x9b31m line 99: fine:1\tbad \\x1b[2J');
    expect(list).not.toMatch(/^line 99/m);
    expect(JSON.parse(show)).toMatchObject({ reason: `bad ${hostile}`, raw: { name: hostile } });
    expect(projections).toMatch(/^D9\t.*\tquoted \\x1b\[2J/m);
  });
});

describe('redrive --all pages through the letters', () => {
  let database: TestDatabase;
  const search = createTestSearch('dead-letters-pages');
  const alias = `${search.prefix}_doctors`;
  // The most dead letter rows one query brought into memory.
  let largestRead = 0;
  const measuring: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: (args) => {
      const rows = args.result.rows as Array<Record<string, unknown>>;
      if (rows[0] !== undefined && 'fingerprint' in rows[0]) largestRead = Math.max(largestRead, rows.length);
      return Promise.resolve(args.result);
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase('dead-letters-pages');
    await ensureDoctorsIndex(search.client, alias);
  });
  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it('re-drives more letters than one page holds, each exactly once, reading a page at a time', async () => {
    // 23 letters over five pages of 5: every third one still invalid, the rest valid now.
    const letters = Array.from({ length: 23 }, (_, n) => ({
      raw:
        n % 3 === 0
          ? { eventId: `broken-${n}`, placeId: `P${n}` }
          : crawled(`P${n}`, 1, '2026-01-01T10:00:00Z'),
      reason: 'old schema',
      source: `file:${n}`,
    }));
    await recordDeadLetters(database.db, letters);
    const ids = (await listDeadLetters(database.db, { limit: 100 })).map((letter) => letter.id);
    const invalidIds = ids.filter((_, n) => n % 3 === 0);
    const deps = {
      db: database.db.withPlugin(measuring),
      search: { client: search.client, alias },
      siteOrigin: SITE,
    };

    const result = await redriveDeadLetters(deps, 'all', { pageSize: 5 });
    expect(largestRead).toBe(5);
    expect(result).toMatchObject({ redriven: 15, stored: 15, duplicates: 0 });
    expect(result.stillInvalid.map((failure) => failure.id)).toEqual(invalidIds);
    const events = await database.db.selectFrom('events').select('event_id').execute();
    expect(events).toHaveLength(15);
    expect((await listDeadLetters(database.db)).map((letter) => letter.id)).toEqual(invalidIds);

    // Once more: only the invalid ones are read again, once each; nothing is stored twice.
    const again = await redriveDeadLetters(deps, 'all', { pageSize: 5 });
    expect(again).toMatchObject({ redriven: 0, stored: 0 });
    expect(again.stillInvalid.map((failure) => failure.id)).toEqual(invalidIds);
  });
});
