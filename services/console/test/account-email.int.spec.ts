import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '@directory/keys';
import type { ReceivedMail } from '@directory/testing';
import {
  CONSOLE_ORIGIN,
  PASSWORD,
  TestBrowser,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';

const NEW_PASSWORD = 'a brand new passphrase';

// Verification, reset, change and sessions against a real SMTP receiver: every link followed here is
// taken from a mail the console sent.
describe('console account e-mail: verification, password reset and change, sessions', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('console-account-email');
  });
  afterAll(async () => {
    await harness.close();
  });

  const mailTo = (email: string, subject: string) =>
    harness.mailbox.waitForMail((mail) => mail.to.includes(email) && mail.subject.includes(subject));
  const mailsTo = (email: string, subject: string) =>
    harness.mailbox.mails.filter((mail) => mail.to.includes(email) && mail.subject.includes(subject));
  /** The path (and query) of the mail's link to `path`, as a browser opening it would request. */
  function linkIn(mail: ReceivedMail, path: string): string {
    const link = mail.links.find((candidate) => candidate.startsWith(`${CONSOLE_ORIGIN}${path}?token=`));
    if (link === undefined) throw new Error(`no ${path} link in the mail`);
    return link.slice(CONSOLE_ORIGIN.length);
  }
  const tokenOf = (path: string) => new URLSearchParams(path.split('?')[1]).get('token') ?? '';

  async function createKey(browser: TestBrowser, mode: 'live' | 'test') {
    return browser.post('/keys', { name: `${mode} key`, expiry: 'never', mode }, { tokenFrom: '/keys' });
  }

  it('mails a verification link at sign-up; live keys wait for it, test keys do not; the link works once', async () => {
    const email = 'verify@example.com';
    const browser = new TestBrowser(harness.app);
    expect((await signUp(browser, email, PASSWORD, { verified: false })).statusCode).toBe(303);

    const mail = await mailTo(email, 'confirm your e-mail address');
    expect(mail.from).toContain('no-reply@console.test');
    expect(mail.html).toContain('Confirm my address');
    const link = linkIn(mail, '/verify-email');
    const token = tokenOf(link);

    // Unverified: the banner, no live key (403), a test key is fine.
    const keysPage = await browser.get('/keys');
    expect(keysPage.body).toContain('data-testid="verify-banner"');
    const refused = await createKey(browser, 'live');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Confirm your e-mail address first');
    expect((await createKey(browser, 'test')).statusCode).toBe(200);
    const keys = await harness.database.db.selectFrom('api_keys').select('prefix').execute();
    expect(keys.map((key) => key.prefix.slice(0, 8))).toEqual(['dk_test_']);

    // The token is stored as a hash only; the link opens a confirmation page (a GET changes nothing).
    const stored = await harness.database.db.selectFrom('account_tokens').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token.split('.')[0]);
    const confirmPage = await browser.get(link);
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain('verify@example.com');
    expect((await browser.get('/account')).body).toContain('Not verified');

    const confirmed = await browser.post('/verify-email', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Your e-mail address is confirmed.');
    expect((await browser.get('/account')).body).toContain('>Verified<');
    expect((await browser.get('/keys')).body).not.toContain('data-testid="verify-banner"');
    expect((await createKey(browser, 'live')).statusCode).toBe(200);

    // Used: the same link, opened or posted again, is refused with one answer.
    expect((await browser.get(link)).statusCode).toBe(400);
    const again = await browser.post('/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('This link does not work');
    // Never in a log line.
    expect(harness.logs.filter((line) => line.includes(token.split('.')[0] ?? '-'))).toEqual([]);
  });

  it('mails a new verification link on request: only the latest works; a verified account gets none', async () => {
    const email = 'resend@example.com';
    const browser = new TestBrowser(harness.app);
    await signUp(browser, email, PASSWORD, { verified: false });
    const first = linkIn(await mailTo(email, 'confirm'), '/verify-email');
    const resent = await browser.post('/verify-email/resend', {}, { tokenFrom: '/account' });
    expect(resent.statusCode).toBe(200);
    expect(resent.body).toContain('We mailed a new link to resend@example.com');
    expect(mailsTo(email, 'confirm')).toHaveLength(2);
    const second = linkIn(mailsTo(email, 'confirm')[1] as ReceivedMail, '/verify-email');
    expect(second).not.toBe(first);

    expect(
      (await browser.post('/verify-email', { token: tokenOf(first) }, { tokenFrom: '/account' })).statusCode,
    ).toBe(400);
    expect((await browser.post('/verify-email', { token: tokenOf(second) })).statusCode).toBe(200);
    const afterVerified = await browser.post('/verify-email/resend', {}, { tokenFrom: '/account' });
    expect(afterVerified.statusCode).toBe(303);
    expect(mailsTo(email, 'confirm')).toHaveLength(2);
  });

  it('resets a forgotten password through the mailed link, ending every session; same answer for unknown addresses', async () => {
    const email = 'forgetful@example.com';
    const here = new TestBrowser(harness.app, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
    });
    await signUp(here, email);
    const elsewhere = new TestBrowser(harness.app);
    expect(
      (await elsewhere.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' })).statusCode,
    ).toBe(303);

    const visitor = new TestBrowser(harness.app);
    const known = await visitor.post('/forgot-password', { email }, { tokenFrom: '/forgot-password' });
    const unknown = await visitor.post(
      '/forgot-password',
      { email: 'nobody@example.com' },
      { tokenFrom: '/forgot-password' },
    );
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    const withoutToken = (body: string) => body.replace(/name="_csrf" value="[^"]+"/g, '');
    expect(withoutToken(known.body)).toBe(withoutToken(unknown.body));

    const mail = await mailTo(email, 'reset your password');
    const link = linkIn(mail, '/reset-password');
    const token = tokenOf(link);
    await expect(
      harness.mailbox.waitForMail((received) => received.to.includes('nobody@example.com'), 500),
    ).rejects.toThrow(/no matching mail/);

    const form = await visitor.get(link);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('forgetful@example.com');
    // A password the rules refuse leaves the link usable.
    const short = await visitor.post('/reset-password', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Use at least 10 characters.');
    const reset = await visitor.post('/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.body).toContain('Your new password is set.');

    // Every session ended; the old password is refused, the new one works; the link is spent.
    for (const browser of [here, elsewhere])
      expect((await browser.get('/keys')).headers.location).toBe('/sign-in');
    const signIn = (password: string) =>
      new TestBrowser(harness.app).post('/sign-in', { email, password }, { tokenFrom: '/sign-in' });
    expect((await signIn(PASSWORD)).statusCode).toBe(401);
    expect((await signIn(NEW_PASSWORD)).statusCode).toBe(303);
    expect(
      (
        await visitor.post(
          '/reset-password',
          { token, password: 'yet another passphrase' },
          { tokenFrom: '/forgot-password' },
        )
      ).statusCode,
    ).toBe(400);
    expect((await visitor.get(link)).statusCode).toBe(400);
  });

  it('refuses an expired reset link, and gives an operator-created account its first password (and verifies it)', async () => {
    const { id } = await ensureAccount(harness.database.db, 'operator-made@example.com');
    const visitor = new TestBrowser(harness.app);
    await visitor.post(
      '/forgot-password',
      { email: 'operator-made@example.com' },
      { tokenFrom: '/forgot-password' },
    );
    const expiring = tokenOf(linkIn(await mailTo('operator-made@example.com', 'reset'), '/reset-password'));
    await sql`update account_tokens set expires_at = now() - interval '1 second'`.execute(
      harness.database.db,
    );
    expect(
      (
        await visitor.post(
          '/reset-password',
          { token: expiring, password: NEW_PASSWORD },
          { tokenFrom: '/forgot-password' },
        )
      ).statusCode,
    ).toBe(400);

    await visitor.post(
      '/forgot-password',
      { email: 'operator-made@example.com' },
      { tokenFrom: '/forgot-password' },
    );
    await harness.mailbox.waitForMail(() => mailsTo('operator-made@example.com', 'reset').length === 2);
    const fresh = tokenOf(
      linkIn(mailsTo('operator-made@example.com', 'reset')[1] as ReceivedMail, '/reset-password'),
    );
    expect(
      (
        await visitor.post(
          '/reset-password',
          { token: fresh, password: NEW_PASSWORD },
          { tokenFrom: '/forgot-password' },
        )
      ).statusCode,
    ).toBe(200);
    const account = await harness.database.db
      .selectFrom('accounts')
      .select(['password_hash', 'email_verified_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^scrypt\$/);
    expect(account.email_verified_at).not.toBeNull();
  });

  it('changes the password with the current one, ending the other sessions and telling the address', async () => {
    const email = 'changer@example.com';
    const here = new TestBrowser(harness.app);
    await signUp(here, email);
    const elsewhere = new TestBrowser(harness.app);
    await elsewhere.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });

    const wrong = await here.post(
      '/account/password',
      { currentPassword: 'not my password', newPassword: NEW_PASSWORD },
      { tokenFrom: '/account' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('This is not your current password.');
    const changed = await here.post(
      '/account/password',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { tokenFrom: '/account' },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('Your password is changed. 1 other session signed out.');
    expect((await here.get('/keys')).statusCode).toBe(200);
    expect((await elsewhere.get('/keys')).headers.location).toBe('/sign-in');
    const notice = await mailTo(email, 'your password was changed');
    expect(notice.links).toEqual([`${CONSOLE_ORIGIN}/forgot-password`]);
  });

  it('lists the sessions (browser, network, times) and signs one out, or all of them', async () => {
    const email = 'sessions@example.com';
    const laptop = new TestBrowser(harness.app, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
      'x-forwarded-for': '203.0.113.77',
    });
    await signUp(laptop, email);
    const phone = new TestBrowser(harness.app, {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'x-forwarded-for': '2001:db8:aa:bb::7',
    });
    await phone.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    const other = new TestBrowser(harness.app);
    await signUp(other, 'someone-else@example.com');

    const page = await laptop.get('/account/sessions');
    expect(page.statusCode).toBe(200);
    expect(page.body.match(/data-testid="session"/g)).toHaveLength(2);
    expect(page.body).toContain('Firefox 132 on Linux');
    expect(page.body).toContain('203.0.113.0/24');
    expect(page.body).toContain('2001:db8:aa::/48');
    expect(page.body).not.toContain('203.0.113.77');
    expect(page.body).toContain('This browser');

    // Last seen moves forward when a session is used (at most once a minute).
    await sql`update console_sessions set last_seen_at = now() - interval '1 hour'`.execute(
      harness.database.db,
    );
    await laptop.get('/keys');
    const seen = await harness.database.db.selectFrom('console_sessions').select('last_seen_at').execute();
    const fresh = seen.filter((row) => Date.now() - row.last_seen_at.getTime() < 60_000);
    expect(fresh).toHaveLength(1);

    // Another account's session handle names nothing here.
    const otherHandle =
      /\/account\/sessions\/([0-9a-f]{32})\/sign-out/.exec(
        (await other.get('/account/sessions')).body,
      )?.[1] ?? '';
    expect(
      (await laptop.post(`/account/sessions/${otherHandle}/sign-out`, {}, { tokenFrom: '/account/sessions' }))
        .statusCode,
    ).toBe(404);
    expect((await other.get('/keys')).statusCode).toBe(200);

    // Sign the phone out from the laptop.
    const listing = (await laptop.get('/account/sessions')).body;
    const rows = listing.split('data-testid="session"').slice(1);
    const phoneRow = rows.find((row) => row.includes('Safari')) ?? '';
    const phoneHandle = /\/account\/sessions\/([0-9a-f]{32})\/sign-out/.exec(phoneRow)?.[1] ?? '';
    expect(phoneHandle).toMatch(/^[0-9a-f]{32}$/);
    const signedOut = await laptop.post(`/account/sessions/${phoneHandle}/sign-out`, {});
    expect(signedOut.statusCode).toBe(200);
    expect((await phone.get('/keys')).headers.location).toBe('/sign-in');
    expect((await laptop.get('/keys')).statusCode).toBe(200);

    // Everywhere: this browser too.
    await phone.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    const everywhere = await laptop.post(
      '/account/sessions/sign-out-everywhere',
      {},
      { tokenFrom: '/account/sessions' },
    );
    expect(everywhere.headers.location).toBe('/sign-in');
    for (const browser of [laptop, phone])
      expect((await browser.get('/keys')).headers.location).toBe('/sign-in');
    expect((await other.get('/keys')).statusCode).toBe(200);
  });
});

// The reset answer must not wait for the account look-up or the mail: with a mail server that takes
// 400 ms to accept each mail, a request for a known address is answered as fast as one for an unknown
// address, and the mail still arrives.
describe('console password reset timing', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole(
      'console-reset-timing',
      {
        accountLimits: {
          verificationMailsMax: 5,
          resetsPerEmailMax: 100,
          resetsPerAddressMax: 100,
          mailWindowSeconds: 3600,
          passwordChangesMax: 5,
          passwordChangeWindowSeconds: 60,
        },
      },
      { mailDelayMs: 400 },
    );
    await signUp(new TestBrowser(harness.app), 'timing-known@example.com');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('answers a known and an unknown address alike, without waiting for the mail server', async () => {
    const elapsed = { known: [] as number[], unknown: [] as number[] };
    for (let round = 0; round < 5; round += 1) {
      for (const [kind, email] of [
        ['known', 'timing-known@example.com'],
        ['unknown', 'timing-unknown@example.com'],
      ] as const) {
        const browser = new TestBrowser(harness.app, { 'x-forwarded-for': `198.51.100.${10 + round}` });
        await browser.get('/forgot-password');
        const started = performance.now();
        const response = await browser.post('/forgot-password', { email });
        elapsed[kind].push(performance.now() - started);
        expect(response.statusCode).toBe(200);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
    // Waiting for the mail would add 400 ms to every known address's answer.
    expect(median(elapsed.known)).toBeLessThan(median(elapsed.unknown) + 200);
    const mail = await harness.mailbox.waitForMail(
      (received) => received.to.includes('timing-known@example.com') && received.subject.includes('reset'),
      5_000,
    );
    expect(mail.links[0]).toMatch(/\/reset-password\?token=/);
  });
});
