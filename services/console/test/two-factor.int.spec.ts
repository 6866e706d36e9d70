import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  TestBrowser,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';
import { totpEnrolAndNextCodes } from '../src/accounts/two-factor.js';

describe('console two-factor sign-in (TOTP)', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('console-two-factor');
  });
  afterAll(async () => {
    await harness.close();
  });

  const secretOn = (body: string) => /data-testid="totp-secret">([A-Z2-7]+)</.exec(body)?.[1] ?? '';
  const codesOn = (body: string) =>
    [...body.matchAll(/<li><code>([2-9a-z-]{11})<\/code><\/li>/g)].map((m) => m[1] ?? '');

  async function signInWithPassword(email: string): Promise<TestBrowser> {
    const browser = new TestBrowser(harness.app);
    const answer = await browser.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/sign-in/two-factor');
    return browser;
  }

  it('enrols with a QR code and a code, then asks for a code at sign-in: a replay is refused, a recovery code works once', async () => {
    const email = 'two-factor@example.com';
    const browser = new TestBrowser(harness.app);
    await signUp(browser, email);
    const enrol = await browser.get('/account/two-factor');
    expect(enrol.statusCode).toBe(200);
    expect(enrol.body).toContain('<svg');
    const secret = secretOn(enrol.body);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The same pending secret on a reload; stored sealed, never in clear.
    expect(secretOn((await browser.get('/account/two-factor')).body)).toBe(secret);
    const stored = await harness.database.db
      .selectFrom('accounts')
      .select(['totp_pending_secret', 'totp_secret'])
      .executeTakeFirstOrThrow();
    expect(stored.totp_pending_secret?.toString('latin1')).not.toContain(secret);

    const wrong = await browser.post('/account/two-factor/enable', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    // The sign-in below uses the next step's code, a later step than the enrolment's.
    const totp = totpEnrolAndNextCodes(secret, new Date());
    const enabled = await browser.post('/account/two-factor/enable', { code: totp.enrol });
    expect(enabled.statusCode).toBe(200);
    const codes = codesOn(enabled.body);
    expect(codes).toHaveLength(10);
    // Never shown again: the page has no secret, no codes.
    const after = await browser.get('/account/two-factor');
    expect(after.body).not.toContain(secret);
    expect(after.body).not.toContain(codes[0]);
    expect(after.body).toContain('10 of your recovery codes are unused');
    const hashes = await harness.database.db
      .selectFrom('account_recovery_codes')
      .select('code_hash')
      .execute();
    expect(JSON.stringify(hashes)).not.toContain((codes[0] ?? '').replace('-', ''));

    // Sign-in: the password alone makes no session.
    await browser.post('/sign-out', {}, { tokenFrom: '/keys' });
    const visitor = await signInWithPassword(email);
    expect((await visitor.get('/keys')).headers.location).toBe('/sign-in');
    const code = totp.next;
    const signedIn = await visitor.post(
      '/sign-in/two-factor',
      { code },
      { tokenFrom: '/sign-in/two-factor' },
    );
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/keys');
    expect((await visitor.get('/keys')).statusCode).toBe(200);

    // The same code again (same step): refused.
    const replayer = await signInWithPassword(email);
    const replay = await replayer.post('/sign-in/two-factor', { code }, { tokenFrom: '/sign-in/two-factor' });
    expect(replay.statusCode).toBe(401);
    expect(replay.body).toContain('already used');

    // A recovery code works once.
    const recovery = codes[3] ?? '';
    const first = await replayer.post('/sign-in/two-factor', { code: recovery.toUpperCase() });
    expect(first.statusCode).toBe(303);
    const again = await signInWithPassword(email);
    expect(
      (await again.post('/sign-in/two-factor', { code: recovery }, { tokenFrom: '/sign-in/two-factor' }))
        .statusCode,
    ).toBe(401);

    // No ticket, no code page; the secret and codes never reach a log line.
    expect((await new TestBrowser(harness.app).get('/sign-in/two-factor')).headers.location).toBe('/sign-in');
    for (const value of [secret, code, recovery])
      expect(harness.logs.filter((line) => line.includes(value))).toEqual([]);
    const kinds = (
      await harness.database.db.selectFrom('account_events').select('kind').orderBy('id').execute()
    ).map((row) => row.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['two-factor-enabled', 'sign-in', 'sign-in-failed', 'recovery-code-used']),
    );
  });

  it('turns off only with the password and a code', async () => {
    const email = 'two-factor-off@example.com';
    const browser = new TestBrowser(harness.app);
    await signUp(browser, email);
    const secret = secretOn((await browser.get('/account/two-factor')).body);
    const { enrol, next: code } = totpEnrolAndNextCodes(secret, new Date());
    await browser.post('/account/two-factor/enable', { code: enrol });
    const noPassword = await browser.post(
      '/account/two-factor/disable',
      { password: 'wrong password!', code },
      { tokenFrom: '/account/two-factor' },
    );
    expect(noPassword.statusCode).toBe(401);
    const noCode = await browser.post('/account/two-factor/disable', { password: PASSWORD, code: '000000' });
    expect(noCode.statusCode).toBe(401);
    const off = await browser.post('/account/two-factor/disable', { password: PASSWORD, code });
    expect(off.statusCode).toBe(200);
    expect(off.body).toContain('Two-factor sign-in is off.');
    const row = await harness.database.db
      .selectFrom('accounts')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null });
    const signIn = await new TestBrowser(harness.app).post(
      '/sign-in',
      { email, password: PASSWORD },
      { tokenFrom: '/sign-in' },
    );
    expect(signIn.headers.location).toBe('/keys');
  });
});
