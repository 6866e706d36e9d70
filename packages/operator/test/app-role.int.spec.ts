import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDatabase, type Database } from '@directory/database';
import { snapshotStart } from '@directory/domain';
import { listDeadLetters, readFeedPage, readSnapshotHorizon, recordFeedClock } from '@directory/event-store';
import { ingestBatch } from '@directory/ingest';
import { generateEvents } from '@directory/sample-data';
import {
  SITE_ORIGIN,
  createTestDatabase,
  createTestSearch,
  type TestDatabase,
  type TestSearch,
} from '@directory/testing';
import { grantAppRole } from '../src/app-role.service.js';

/**
 * `directory db grant-app-role`: the services connect as a role that reads and writes rows (the ingest
 * pipeline, the feed, accounts and keys work) and can change no schema and empty no table.
 */
describe('the services’ least-privilege role', () => {
  const role = `directory_app_${randomBytes(4).toString('hex')}`;
  let owner: TestDatabase;
  let search: TestSearch;
  let app: Database;

  beforeAll(async () => {
    owner = await createTestDatabase('app-role');
    search = createTestSearch('app-role');
    await grantAppRole(owner.db, role);
    // Idempotent: a second run resets the same grants (and sets the password the services connect with).
    await grantAppRole(owner.db, role, 'the-services-password');
    const url = new URL(owner.url);
    url.username = role;
    url.password = '';
    app = createDatabase(url.toString(), { maxConnections: 2 });
  });
  afterAll(async () => {
    await app.destroy();
    await sql`drop owned by ${sql.id(role)}`.execute(owner.db);
    await sql`drop role ${sql.id(role)}`.execute(owner.db);
    await search.cleanup();
    await owner.drop();
  });

  const refusal = (statement: ReturnType<typeof sql.raw>) =>
    statement.execute(app).then(
      () => 'allowed',
      (error: { code?: string }) => error.code,
    );

  it('stores the password as a SCRAM verifier, and the role can do nothing an owner could', async () => {
    const stored = await sql<{
      password: string;
      superuser: boolean;
      createrole: boolean;
      createdb: boolean;
    }>`
      select rolpassword as password, rolsuper as superuser, rolcreaterole as createrole, rolcreatedb as createdb
      from pg_authid where rolname = ${role}`.execute(owner.db);
    expect(stored.rows[0]).toMatchObject({ superuser: false, createrole: false, createdb: false });
    expect(stored.rows[0]?.password).toMatch(/^SCRAM-SHA-256\$4096:/);
  });

  it('runs what the services run: ingest (store, fold, project), dead letters, the feed, keys', async () => {
    expect((await sql<{ who: string }>`select current_user as who`.execute(app)).rows[0]?.who).toBe(role);
    const items = [...generateEvents({ count: 300, seed: 3 })].map((raw) => ({ raw, source: 'app-role' }));
    const result = await ingestBatch(
      {
        db: app,
        search: { client: search.client, alias: `${search.prefix}_doctors` },
        siteOrigin: SITE_ORIGIN,
      },
      items,
    );
    expect(result.stored).toBeGreaterThan(200);
    expect(result.deadLettered).toBeGreaterThan(0);
    expect(await listDeadLetters(app)).toHaveLength(result.deadLettered);
    await recordFeedClock(app);
    const from = snapshotStart(await readSnapshotHorizon(app, 'de'));
    expect((await readFeedPage(app, { country: 'de', from, limit: 100 })).listed.length).toBeGreaterThan(0);

    const account = await app
      .insertInto('accounts')
      .values({ id: 'acct-app-role', email: 'role@example.com', password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app
      .insertInto('api_keys')
      .values({
        id: 'key-app-role',
        account_id: account.id,
        name: 'n',
        prefix: 'dk_live_x',
        secret_hash: 'h',
      })
      .execute();
    await app
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', 'key-app-role')
      .execute();
    await app.deleteFrom('api_keys').where('id', '=', 'key-app-role').execute();
  });

  it('is refused every schema change, TRUNCATE and writes to the migrations’ records', async () => {
    const insufficientPrivilege = '42501';
    for (const statement of [
      'create table intruder (x int)',
      'alter table events add column intruder int',
      'drop table events',
      'create index intruder on events (type)',
      'truncate events',
      'truncate api_keys cascade',
      "update kysely_migration set name = 'x'",
      "delete from kysely_migration where name like '0015%'",
    ]) {
      expect(await refusal(sql.raw(statement)), statement).toBe(insufficientPrivilege);
    }
    // It may read which migrations ran (the status screen does), nothing more.
    expect(await refusal(sql.raw('select count(*) from kysely_migration'))).toBe('allowed');
  });

  it('gets the same rights on a table a later migration adds (the owner’s default privileges)', async () => {
    await sql`create table later_table (id int primary key)`.execute(owner.db);
    expect(await refusal(sql.raw('insert into later_table values (1)'))).toBe('allowed');
    expect(await refusal(sql.raw('truncate later_table'))).toBe('42501');
  });
});
