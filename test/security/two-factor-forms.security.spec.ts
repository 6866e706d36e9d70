import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  TestBrowser,
  csrfTokenIn,
  signUp,
  startConsole,
  type ConsoleHarness,
} from '../../services/console/test/support/console-harness.js';
import { totpEnrolAndNextCodes } from '../../services/console/src/accounts/two-factor.js';

// The two-factor and deletion forms' limits: every code and password is counted per account before it
// is checked, so parallel guesses cannot exceed the limit, and a throttled attempt is refused even with
// the right code (the limit is no oracle). A sign-in ticket that is altered or missing earns nothing.

const CODES_MAX = 3;
const REAUTH_MAX = 4;
const ATTEMPTS = 20;

describe('two-factor and account deletion forms under guessing', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('security-two-factor', {
      accountLimits: {
        verificationMailsMax: 5,
        resetsPerEmailMax: 3,
        resetsPerAddressMax: 20,
        mailWindowSeconds: 3600,
        passwordChangesMax: REAUTH_MAX,
        passwordChangeWindowSeconds: 600,
        twoFactorCodesMax: CODES_MAX,
        twoFactorWindowSeconds: 600,
      },
    });
  });
  afterAll(async () => {
    await harness.close();
  });

  /** A signed-up account with two-factor on, and a code it will accept next. */
  async function enrolled(email: string): Promise<{ browser: TestBrowser; nextCode: string }> {
    const browser = new TestBrowser(harness.app);
    await signUp(browser, email);
    const page = await browser.get('/account/two-factor');
    const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(page.body)?.[1] ?? '';
    const codes = totpEnrolAndNextCodes(secret, new Date());
    const enabled = await browser.post('/account/two-factor/enable', { code: codes.enrol });
    expect(enabled.statusCode).toBe(200);
    return { browser, nextCode: codes.next };
  }

  const sessionCount = async () =>
    Number(
      (
        await harness.database.db
          .selectFrom('console_sessions')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it(`admits ${CODES_MAX} code guesses per account at sign-in, in parallel too; then refuses the right code with 429`, async () => {
    const email = 'guessed@example.com';
    const { browser, nextCode } = await enrolled(email);
    await browser.post('/sign-out', {}, { tokenFrom: '/keys' });
    const attacker = new TestBrowser(harness.app);
    await attacker.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    const token = csrfTokenIn((await attacker.get('/sign-in/two-factor')).body);
    const before = await sessionCount();
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, index) =>
        attacker.post('/sign-in/two-factor', { code: String(100000 + index) }, { csrf: { token } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(CODES_MAX);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(ATTEMPTS - CODES_MAX);
    const throttled = answers.find((answer) => answer.statusCode === 429);
    expect(Number(throttled?.headers['retry-after'])).toBeGreaterThan(0);
    const right = await attacker.post('/sign-in/two-factor', { code: nextCode }, { csrf: { token } });
    expect(right.statusCode).toBe(429);
    expect(await sessionCount()).toBe(before);
  });

  it('earns nothing with an altered or missing ticket', async () => {
    const email = 'ticket@example.com';
    const { browser, nextCode } = await enrolled(email);
    await browser.post('/sign-out', {}, { tokenFrom: '/keys' });
    const visitor = new TestBrowser(harness.app);
    await visitor.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    const ticket = visitor.cookies.get('console_2fa') ?? '';
    expect(ticket).not.toBe('');
    const token = csrfTokenIn((await visitor.get('/sign-in/two-factor')).body);
    // The same ticket moved to another account id: refused.
    visitor.cookies.set('console_2fa', ticket.replace(/^[^.]+/, '00000000-0000-4000-8000-000000000000'));
    const moved = await visitor.post('/sign-in/two-factor', { code: nextCode }, { csrf: { token } });
    expect(moved.headers.location).toBe('/sign-in');
    visitor.cookies.delete('console_2fa');
    const none = await visitor.post('/sign-in/two-factor', { code: nextCode }, { csrf: { token } });
    expect(none.headers.location).toBe('/sign-in');
    expect((await visitor.get('/keys')).headers.location).toBe('/sign-in');
  });

  it(`admits ${REAUTH_MAX} password guesses per account on the deletion form, in parallel too; the account stays`, async () => {
    const email = 'not-deleted@example.com';
    const browser = new TestBrowser(harness.app);
    await signUp(browser, email);
    const token = csrfTokenIn((await browser.get('/account/delete')).body);
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, index) =>
        browser.post(
          '/account/delete',
          { password: `wrong password ${index}`, code: '' },
          { csrf: { token } },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(REAUTH_MAX);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(ATTEMPTS - REAUTH_MAX);
    const right = await browser.post(
      '/account/delete',
      { password: PASSWORD, code: '' },
      { csrf: { token } },
    );
    expect(right.statusCode).toBe(429);
    const row = await harness.database.db
      .selectFrom('accounts')
      .select(['email', 'deleted_at'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });

  it(`admits ${CODES_MAX} wrong codes per account when confirming an enrolment`, async () => {
    const browser = new TestBrowser(harness.app);
    await signUp(browser, 'enrol-guess@example.com');
    const token = csrfTokenIn((await browser.get('/account/two-factor')).body);
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, index) =>
        browser.post('/account/two-factor/enable', { code: String(200000 + index) }, { csrf: { token } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(CODES_MAX);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(ATTEMPTS - CODES_MAX);
  });
});
