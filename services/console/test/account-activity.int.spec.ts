import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  TestBrowser,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';
import { ACTIVITY_PAGE_SIZE } from '../src/accounts/account-events.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

describe('console activity log', () => {
  let harness: ConsoleHarness;
  beforeAll(async () => {
    harness = await startConsole('console-activity');
  });
  afterAll(async () => {
    await harness.close();
  });

  const kindsOn = (body: string) => [...body.matchAll(/data-kind="([^"]+)"/g)].map((match) => match[1]);

  it('records sign-ins (refused ones without the password), keys and sign-out with browser and network, newest first', async () => {
    const email = 'activity@example.com';
    const browser = new TestBrowser(harness.app, {
      'user-agent': FIREFOX,
      'x-forwarded-for': '203.0.113.77',
    });
    await signUp(browser, email);
    const wrong = 'not the password at all';
    const refused = await new TestBrowser(harness.app, { 'x-forwarded-for': '198.51.100.9' }).post(
      '/sign-in',
      { email, password: wrong },
      { tokenFrom: '/sign-in' },
    );
    expect(refused.statusCode).toBe(401);
    await browser.post('/keys', { name: 'ci key', expiry: 'never', mode: 'test' }, { tokenFrom: '/keys' });
    const keyId = (await harness.database.db.selectFrom('api_keys').select('id').executeTakeFirstOrThrow())
      .id;
    await browser.post(`/keys/${keyId}/revoke`, {}, { tokenFrom: `/keys/${keyId}/revoke` });
    const signedIn = await browser.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    expect(signedIn.statusCode).toBe(303);

    const page = await browser.get('/account/activity');
    expect(page.statusCode).toBe(200);
    expect(kindsOn(page.body)).toEqual(['sign-in', 'key-revoked', 'key-created', 'sign-in-failed']);
    expect(page.body).toContain(keyId);
    expect(page.body).toContain('Firefox 132 on Linux');
    expect(page.body).toContain('203.0.113.0/24');
    expect(page.body).toContain('198.51.100.0/24');
    expect(page.body).not.toContain('203.0.113.77');

    const rows = await harness.database.db.selectFrom('account_events').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(wrong);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.77');

    await browser.post('/sign-out', {}, { tokenFrom: '/keys' });
    const again = new TestBrowser(harness.app);
    await again.post('/sign-in', { email, password: PASSWORD }, { tokenFrom: '/sign-in' });
    expect(kindsOn((await again.get('/account/activity')).body).slice(0, 2)).toEqual(['sign-in', 'sign-out']);
  });

  it('pages the log and shows an account only its own events', async () => {
    const browser = new TestBrowser(harness.app);
    await signUp(browser, 'pages@example.com');
    const { id } = await harness.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'pages@example.com')
      .executeTakeFirstOrThrow();
    for (let index = 0; index < ACTIVITY_PAGE_SIZE + 3; index += 1)
      await harness.database.db
        .insertInto('account_events')
        .values({ account_id: id, kind: 'key-created', detail: `key-${index}` })
        .execute();
    const first = await browser.get('/account/activity');
    expect(kindsOn(first.body)).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first.body).toContain(`key-${ACTIVITY_PAGE_SIZE + 2}`);
    expect(first.body).toContain('href="/account/activity?page=2"');
    const second = await browser.get('/account/activity?page=2');
    expect(kindsOn(second.body)).toHaveLength(3);
    expect(second.body).toContain('key-0<');
    expect(second.body).not.toContain('page=3');

    const other = new TestBrowser(harness.app);
    await signUp(other, 'someone-else@example.com');
    expect(kindsOn((await other.get('/account/activity')).body)).toEqual([]);
  });
});
