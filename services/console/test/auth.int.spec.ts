import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '@directory/keys';
import { hashSessionToken } from '../src/sessions/session.repository.js';
import {
  PASSWORD,
  TestBrowser,
  csrfTokenIn,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';

describe('console accounts, sessions, CSRF and throttling', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('console-auth');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('serves accessible sign-up and sign-in forms with strict security headers', async () => {
    const browser = new TestBrowser(harness.app);
    for (const [path, button] of [
      ['/sign-up', 'Sign up'],
      ['/sign-in', 'Sign in'],
    ] as const) {
      const page = await browser.get(path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<label for="email">Email</label>');
      expect(page.body).toContain('<label for="password">Password</label>');
      expect(page.body).toContain(`>${button}</button>`);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    expect((await browser.get('/')).headers.location).toBe('/sign-in');
  });

  it('signs up with an scrypt-hashed password and a hashed, HttpOnly, SameSite session cookie', async () => {
    const browser = new TestBrowser(harness.app);
    const response = await signUp(browser, 'Ada@Example.com');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/keys');
    const cookie = response.cookies.find((candidate) => candidate.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const account = await harness.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'Ada@Example.com')
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(account.password_hash).not.toContain(PASSWORD);
    const sessions = await harness.database.db.selectFrom('console_sessions').selectAll().execute();
    expect(sessions.map((session) => session.id)).toContain(hashSessionToken(cookie?.value ?? ''));
    expect(sessions.map((session) => session.id)).not.toContain(cookie?.value);

    const keys = await browser.get('/keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.body).toContain('Ada@Example.com');
    expect((await browser.get('/')).headers.location).toBe('/keys');
  });

  it('behind a TLS proxy (X-Forwarded-Proto), names its cookies __Host- and marks them Secure', async () => {
    const browser = new TestBrowser(harness.app, { 'x-forwarded-proto': 'https' });
    const form = await browser.get('/sign-up');
    expect(form.cookies.map((cookie) => cookie.name)).toEqual(['__Host-console_csrf']);
    const response = await signUp(browser, 'tls@example.com');
    expect(response.cookies.map((cookie) => cookie.name)).toEqual(['__Host-console_session']);
    // What browsers require of a __Host- cookie: Secure, Path=/, no Domain.
    for (const cookie of [...form.cookies, ...response.cookies]) {
      expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true, sameSite: 'Lax' });
      expect(cookie.domain).toBeUndefined();
    }
    expect((await browser.get('/keys')).statusCode).toBe(200);

    // A plain-named session cookie is not read over TLS (a sibling subdomain could have set it).
    const planted = new TestBrowser(harness.app, { 'x-forwarded-proto': 'https' });
    planted.cookies.set('console_session', browser.cookies.get('__Host-console_session') ?? '');
    expect((await planted.get('/keys')).headers.location).toBe('/sign-in');
  });

  it('over TLS, refuses a sign-in whose CSRF seed comes from a planted plain-named cookie', async () => {
    // The attacker's own visit gives a seed and its token; a sibling subdomain can only set a cookie
    // without the __Host- prefix.
    const attacker = new TestBrowser(harness.app, { 'x-forwarded-proto': 'https' });
    await attacker.get('/sign-in');
    const victim = new TestBrowser(harness.app, { 'x-forwarded-proto': 'https' });
    const [seed = ''] = attacker.cookies.values();
    victim.cookies.set('console_csrf', seed);
    const response = await victim.post(
      '/sign-in',
      { email: 'tls@example.com', password: PASSWORD },
      { csrf: { token: csrfTokenIn(attacker.lastHtml) } },
    );
    expect(response.statusCode).toBe(403);
    expect(victim.cookies.has('__Host-console_session')).toBe(false);
  });

  it('refuses a second account for the same email, and operator-created accounts cannot be claimed', async () => {
    const browser = new TestBrowser(harness.app);
    expect((await signUp(browser, 'dup@example.com')).statusCode).toBe(303);
    const other = new TestBrowser(harness.app);
    const again = await signUp(other, 'DUP@example.com');
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already exists');

    await ensureAccount(harness.database.db, 'operator-made@example.com');
    expect((await signUp(other, 'operator-made@example.com')).statusCode).toBe(409);
    const signIn = await other.post(
      '/sign-in',
      { email: 'operator-made@example.com', password: '!' },
      { tokenFrom: '/sign-in' },
    );
    expect(signIn.statusCode).toBe(401);
  });

  it('answers a sign-in for an operator-created account (no password) as slowly as a wrong password', async () => {
    await ensureAccount(harness.database.db, 'timing-operator-made@example.com');
    await signUp(new TestBrowser(harness.app), 'timing-user@example.com');
    // Interleaved, each attempt from an address of its own (no throttle in the way); medians of 7.
    const elapsed = { operatorMade: [] as number[], wrongPassword: [] as number[] };
    for (let round = 0; round < 7; round += 1) {
      for (const [kind, email] of [
        ['operatorMade', 'timing-operator-made@example.com'],
        ['wrongPassword', 'timing-user@example.com'],
      ] as const) {
        const browser = new TestBrowser(harness.app, { 'x-forwarded-for': `198.51.100.${100 + round}` });
        await browser.get('/sign-in');
        const started = performance.now();
        const response = await browser.post('/sign-in', { email, password: 'not the password' });
        elapsed[kind].push(performance.now() - started);
        expect(response.statusCode).toBe(401);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
    // The same scrypt work makes the ratio about 1; a skipped check makes it a few hundredths.
    expect(median(elapsed.operatorMade) / median(elapsed.wrongPassword)).toBeGreaterThan(0.5);
  });

  it('validates the sign-up form and shows the errors next to the fields', async () => {
    const browser = new TestBrowser(harness.app);
    const response = await browser.post(
      '/sign-up',
      { email: 'not-an-email', password: 'short' },
      { tokenFrom: '/sign-up' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('aria-invalid="true"');
    expect(response.body).toContain('Use at least 10 characters.');
  });

  it('signs in with the right password, refuses a wrong one, and signs out', async () => {
    await signUp(new TestBrowser(harness.app), 'grace@example.com');
    const browser = new TestBrowser(harness.app, { 'x-forwarded-for': '198.51.100.7' });
    const wrong = await browser.post(
      '/sign-in',
      { email: 'grace@example.com', password: 'wrong password!' },
      { tokenFrom: '/sign-in' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Email or password is incorrect.');
    const unknown = await browser.post(
      '/sign-in',
      { email: 'nobody@example.com', password: PASSWORD },
      { tokenFrom: '/sign-in' },
    );
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('Email or password is incorrect.');

    const right = await browser.post(
      '/sign-in',
      { email: 'GRACE@example.com', password: PASSWORD },
      { tokenFrom: '/sign-in' },
    );
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/keys');
    expect((await browser.get('/keys')).statusCode).toBe(200);

    const out = await browser.post('/sign-out', {}, { tokenFrom: '/keys' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/sign-in');
    const after = await browser.get('/keys');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/sign-in');
  });

  it('throttles sign-in after repeated failures for an email and address, even with the right password', async () => {
    await signUp(new TestBrowser(harness.app), 'linus@example.com');
    const attacker = new TestBrowser(harness.app, { 'x-forwarded-for': '203.0.113.9' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failed = await attacker.post(
        '/sign-in',
        { email: 'linus@example.com', password: `guess-${attempt}-xx` },
        { tokenFrom: '/sign-in' },
      );
      expect(failed.statusCode).toBe(401);
    }
    const throttled = await attacker.post(
      '/sign-in',
      { email: 'linus@example.com', password: PASSWORD },
      { tokenFrom: '/sign-in' },
    );
    expect(throttled.statusCode).toBe(429);
    expect(throttled.body).toContain('Too many failed sign-in attempts');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

    // The owner, from elsewhere, is not locked out.
    const owner = new TestBrowser(harness.app, { 'x-forwarded-for': '192.0.2.44' });
    const ok = await owner.post(
      '/sign-in',
      { email: 'linus@example.com', password: PASSWORD },
      { tokenFrom: '/sign-in' },
    );
    expect(ok.statusCode).toBe(303);
  });

  it('refuses every form post without a valid CSRF token (403)', async () => {
    const browser = new TestBrowser(harness.app);
    await browser.get('/sign-in');
    const noToken = await browser.post(
      '/sign-in',
      { email: 'grace@example.com', password: PASSWORD },
      { csrf: 'none' },
    );
    expect(noToken.statusCode).toBe(403);
    expect(browser.cookies.has('console_session')).toBe(false);

    await signUp(browser, 'csrf@example.com');
    for (const url of ['/keys', '/sign-out']) {
      const response = await browser.post(url, { name: 'sneaky' }, { csrf: 'none' });
      expect(response.statusCode).toBe(403);
    }

    // A token from another browser's session does not work in this one.
    const other = new TestBrowser(harness.app);
    await signUp(other, 'csrf-other@example.com');
    await other.get('/keys');
    const foreign = await browser.post(
      '/keys',
      { name: 'sneaky' },
      { csrf: { token: csrfTokenIn(other.lastHtml) } },
    );
    expect(foreign.statusCode).toBe(403);
    expect(await harness.database.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(0);
  });

  it('refuses a signed-in post carrying a planted CSRF seed cookie and its token (403)', async () => {
    const victim = new TestBrowser(harness.app);
    await signUp(victim, 'planted-seed@example.com');
    await victim.post('/keys', { name: 'mine' }, { tokenFrom: '/keys' });
    const keyId = (
      await harness.database.db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select('api_keys.id')
        .where('accounts.email', '=', 'planted-seed@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    // The attacker's own signed-out visit gives a seed and its token; a sibling subdomain plants the
    // seed in the victim's browser (plain HTTP: no __Host- prefix to stop it).
    const attacker = new TestBrowser(harness.app);
    await attacker.get('/sign-in');
    const token = csrfTokenIn(attacker.lastHtml);
    victim.cookies.set('console_csrf', attacker.cookies.get('console_csrf') ?? '');
    for (const [url, fields] of [
      ['/keys', { name: 'planted' }],
      [`/keys/${keyId}/revoke`, {}],
      [`/keys/${keyId}/roll`, { grace: 'none' }],
      ['/sign-out', {}],
    ] as const) {
      const response = await victim.post(url, fields, { csrf: { token } });
      expect(response.statusCode, url).toBe(403);
    }
    const keys = await harness.database.db
      .selectFrom('api_keys')
      .select(['name', 'revoked_at'])
      .where('id', '=', keyId)
      .union(
        harness.database.db
          .selectFrom('api_keys')
          .select(['name', 'revoked_at'])
          .where('name', '=', 'planted'),
      )
      .execute();
    expect(keys).toEqual([{ name: 'mine', revoked_at: null }]);
    // The session's own token still works.
    expect((await victim.post('/sign-out', {}, { tokenFrom: '/keys' })).statusCode).toBe(303);
  });

  it('never logs passwords, session tokens or CSRF tokens', () => {
    const logs = harness.logs.join('\n');
    expect(logs).toContain('account created');
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toMatch(/console_session=/);
    expect(logs).not.toContain('_csrf');
  });
});
