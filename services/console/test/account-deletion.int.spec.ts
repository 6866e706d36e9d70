import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barRedisKey, checkKeyBySecret } from '@directory/keys';
import { nodeArguments } from '@directory/testing';
import {
  PASSWORD,
  TestBrowser,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';
import { totpEnrolAndNextCodes } from '../src/accounts/two-factor.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('account deletion (console and `directory accounts delete`)', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('console-account-deletion');
  });
  afterAll(async () => {
    await harness.close();
  });

  async function accountWithKeys(
    email: string,
    browser: TestBrowser,
  ): Promise<{ id: string; secrets: string[] }> {
    await signUp(browser, email);
    const secrets: string[] = [];
    for (const mode of ['live', 'test']) {
      const page = await browser.post(
        '/keys',
        { name: `${mode} key`, expiry: 'never', mode },
        { tokenFrom: '/keys' },
      );
      secrets.push(/data-testid="new-secret">([^<]+)</.exec(page.body)?.[1] ?? '');
    }
    const { id } = await harness.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { id, secrets };
  }

  it('asks the password and the code again, then revokes and bars every key at once, erases the account and mails a confirmation', async () => {
    const email = 'leaving@example.com';
    const browser = new TestBrowser(harness.app, { 'x-forwarded-for': '203.0.113.5' });
    const { id, secrets } = await accountWithKeys(email, browser);
    for (const secret of secrets)
      expect((await checkKeyBySecret(harness.database.db, secret)).kind).toBe('active');
    const otp =
      /data-testid="totp-secret">([A-Z2-7]+)</.exec((await browser.get('/account/two-factor')).body)?.[1] ??
      '';
    const codes = totpEnrolAndNextCodes(otp, new Date());
    await browser.post('/account/two-factor/enable', { code: codes.enrol });
    const elsewhere = new TestBrowser(harness.app);

    const page = await browser.get('/account/delete');
    expect(page.body).toContain('name="code"');
    const wrongPassword = await browser.post('/account/delete', { password: 'not my password', code: '' });
    expect(wrongPassword.statusCode).toBe(401);
    const noCode = await browser.post('/account/delete', { password: PASSWORD, code: '000000' });
    expect(noCode.statusCode).toBe(401);
    const deleted = await browser.post('/account/delete', {
      password: PASSWORD,
      code: codes.next,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toContain('Your account is deleted.');

    // The keys: refused from the next request on, barred in Redis.
    for (const secret of secrets)
      expect((await checkKeyBySecret(harness.database.db, secret)).kind).toBe('refused');
    const keys = await harness.database.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'revoked_at'])
      .where('account_id', '=', id)
      .execute();
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key.revoked_at).not.toBeNull();
      expect(key.name).toBe('deleted');
      expect(await harness.redis.redis.exists(barRedisKey(harness.redis.prefix, key.id))).toBe(1);
    }
    // Personal data: gone; the row stays as an anonymous tombstone.
    const account = await harness.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(account.email).toBe(`deleted:${id}`);
    expect(account.password_hash).toBe('!');
    expect(account.totp_secret).toBeNull();
    expect(account.deleted_at).not.toBeNull();
    for (const table of [
      'console_sessions',
      'account_tokens',
      'account_recovery_codes',
      'webhook_endpoints',
    ] as const)
      expect(
        await harness.database.db
          .selectFrom(table)
          .select('account_id')
          .where('account_id', '=', id)
          .execute(),
      ).toEqual([]);
    const events = await harness.database.db
      .selectFrom('account_events')
      .selectAll()
      .where('account_id', '=', id)
      .execute();
    expect(
      events.every(
        (event) => event.user_agent === null && event.address_range === null && event.detail === null,
      ),
    ).toBe(true);
    expect(events.map((event) => event.kind)).toContain('account-deleted');
    expect((await browser.get('/keys')).headers.location).toBe('/sign-in');
    expect(
      (await elsewhere.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' })).statusCode,
    ).toBe(401);

    const mail = await harness.mailbox.waitForMail(
      (received) => received.to.includes(email) && received.subject.includes('deleted'),
    );
    expect(mail.text).toContain('2 API key(s) revoked');
  });

  it('`directory accounts delete` does the same erasure; --dry-run changes nothing; an unknown account exits 1', async () => {
    const email = 'operator-deletes@example.com';
    const { id, secrets } = await accountWithKeys(email, new TestBrowser(harness.app));
    const accounts = (...args: string[]) =>
      run(process.execPath, nodeArguments('packages/keys/src/accounts.cli.ts', args), {
        cwd: root,
        env: { ...process.env, DATABASE_URL: harness.database.url, REDIS_PREFIX: harness.redis.prefix },
      });
    const dry = await accounts('delete', email.toUpperCase(), '--dry-run');
    expect(dry.stderr).toContain('would leave 2 key(s) revoked');
    expect((await checkKeyBySecret(harness.database.db, secrets[0] ?? '')).kind).toBe('active');

    const done = await accounts('delete', id);
    expect(done.stderr).toContain(`deleted account ${id}`);
    for (const secret of secrets)
      expect((await checkKeyBySecret(harness.database.db, secret)).kind).toBe('refused');
    const row = await harness.database.db
      .selectFrom('accounts')
      .select(['email', 'deleted_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(`deleted:${id}`);

    const unknown = await accounts('delete', email).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account');
  });
});
