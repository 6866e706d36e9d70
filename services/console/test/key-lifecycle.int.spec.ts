import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, usageDay } from '@directory/domain';
import { addUsageBatch, checkKeyBySecret } from '@directory/keys';
import { TestBrowser, signUp, startConsole, type ConsoleHarness } from './support/console-harness.js';

const NEW_SECRET = /data-testid="new-secret"[^>]*>([^<]+)</;
const DAY = 86_400_000;

function secretIn(html: string): string {
  const secret = NEW_SECRET.exec(html)?.[1];
  if (secret === undefined) throw new Error('no new secret on the page');
  return secret;
}

function rowsOf(html: string): Map<string, [name: string, cells: string]> {
  const rows = new Map<string, [name: string, cells: string]>();
  for (const match of html.matchAll(/<tr data-key-id="([^"]+)">([\s\S]*?)<\/tr>/g)) {
    const name = /<th scope="row">([^<]*)</.exec(match[2] ?? '')?.[1]?.trim() ?? '';
    rows.set(match[1] ?? '', [name, match[2] ?? '']);
  }
  return rows;
}

describe('console: expiry, rolling and usage', () => {
  let harness: ConsoleHarness;
  let browser: TestBrowser;
  beforeAll(async () => {
    harness = await startConsole('console-key-lifecycle');
    browser = new TestBrowser(harness.app);
    await signUp(browser, 'lifecycle@example.com');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('creates a key with a chosen expiry, flags it within seven days of it, and shows it expired after', async () => {
    const created = await browser.post('/keys', { name: 'expiring', expiry: '30' }, { tokenFrom: '/keys' });
    expect(created.statusCode).toBe(200);
    const row = await harness.database.db
      .selectFrom('api_keys')
      .select(['id', 'created_at', 'expires_at'])
      .where('name', '=', 'expiring')
      .executeTakeFirstOrThrow();
    expect((row.expires_at?.getTime() ?? 0) - row.created_at.getTime()).toBe(30 * DAY);
    expect(rowsOf((await browser.get('/keys')).body).get(row.id)?.[1]).not.toContain('Expires soon');

    const setExpiry = (at: Date) =>
      harness.database.db.updateTable('api_keys').set({ expires_at: at }).where('id', '=', row.id).execute();
    await setExpiry(new Date(Date.now() + 6 * DAY));
    expect(rowsOf((await browser.get('/keys')).body).get(row.id)?.[1]).toContain('Expires soon');
    await setExpiry(new Date(Date.now() - 1_000));
    const expired = rowsOf((await browser.get('/keys')).body).get(row.id)?.[1] ?? '';
    expect(expired).toContain('Expired');
    expect(expired).not.toContain('Expires soon');
    expect(expired).not.toContain('>Roll<');

    // Only the offered lifetimes are accepted.
    expect((await browser.post('/keys', { name: 'odd', expiry: '7' })).statusCode).toBe(400);
  });

  it('rolls a key with a grace period: the new secret is shown once, both keys are listed and work', async () => {
    const created = await browser.post('/keys', { name: 'rolling' });
    const oldSecret = secretIn(created.body);
    const oldId = [...rowsOf(created.body)].find(([, [name]]) => name === 'rolling')?.[0] ?? '';
    expect((await browser.get(`/keys/${oldId}/roll`)).body).toContain('Grace period');

    const rolled = await browser.post(
      `/keys/${oldId}/roll`,
      { grace: '1h' },
      { tokenFrom: `/keys/${oldId}/roll` },
    );
    expect(rolled.statusCode).toBe(200);
    const newSecret = secretIn(rolled.body);
    expect(newSecret).not.toBe(oldSecret);
    expect(rolled.body).toContain('keeps working until');
    const rows = [...rowsOf(rolled.body).values()].filter(([name]) => name === 'rolling');
    expect(rows).toHaveLength(2);
    expect(
      rows.map(([, cells]) => (cells.includes('badge retiring') ? 'retiring' : 'active')).sort(),
    ).toEqual(['active', 'retiring']);
    expect((await checkKeyBySecret(harness.database.db, oldSecret)).kind).toBe('active');
    expect((await checkKeyBySecret(harness.database.db, newSecret)).kind).toBe('active');
    // A reload shows no secret.
    expect((await browser.get('/keys')).body).not.toMatch(new RegExp(API_KEY_PATTERN.source));
    // The old key cannot be rolled again; an unknown grace period is refused.
    expect((await browser.get(`/keys/${oldId}/roll`)).headers.location).toBe('/keys');
    const again = await browser.post(`/keys/${oldId}/roll`, { grace: 'none' }, { tokenFrom: '/keys' });
    expect(again.statusCode).toBe(409);
    const odd = await browser.post(`/keys/${oldId}/roll`, { grace: '2h' }, { tokenFrom: '/keys' });
    expect(odd.statusCode).toBe(400);
  });

  it('rolls without a grace period: only the new secret works', async () => {
    const created = await browser.post('/keys', { name: 'instant' });
    const oldSecret = secretIn(created.body);
    const oldId = [...rowsOf(created.body)].find(([, [name]]) => name === 'instant')?.[0] ?? '';
    const rolled = await browser.post(`/keys/${oldId}/roll`, { grace: 'none' }, { tokenFrom: '/keys' });
    expect((await checkKeyBySecret(harness.database.db, oldSecret)).kind).toBe('refused');
    expect((await checkKeyBySecret(harness.database.db, secretIn(rolled.body))).kind).toBe('active');
  });

  it("shows a key's last use, 30-day totals with 429s apart, its rate limit and a chart drawn on the server", async () => {
    const created = await browser.post('/keys', { name: 'charted' });
    const keyId = [...rowsOf(created.body)].find(([, [name]]) => name === 'charted')?.[0] ?? '';
    const today = usageDay(Date.now());
    const old = usageDay(Date.now() - 40 * DAY);
    await addUsageBatch(harness.database.db, {
      id: 'console-usage',
      counts: [
        { keyId, day: today, requests: 1200, limited: 30 },
        { keyId, day: usageDay(Date.now() - 2 * DAY), requests: 34, limited: 0 },
        { keyId, day: old, requests: 999, limited: 0 },
      ],
      lastUsed: [{ keyId, at: new Date('2030-01-02T03:04:05.000Z') }],
    });
    const row = rowsOf((await browser.get('/keys')).body).get(keyId)?.[1] ?? '';
    expect(row).toContain('2030-01-02 03:04 UTC');
    expect(row).toContain('1,234 requests');
    expect(row).toContain('30 answered 429');
    expect(row).toContain('limit 120 requests per 60 s');

    const page = await browser.get(`/keys/${keyId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-testid="usage-requests">1,234</);
    expect(page.body).toMatch(/data-testid="usage-limited">30</);
    expect(page.body).toContain('<svg');
    expect(page.body.match(/<g data-day=/g)).toHaveLength(30);
    expect(page.body).toContain(`data-day="${today}" data-requests="1200" data-limited="30"`);
    expect(page.body).not.toContain(`data-day="${old}"`);
    expect(page.body).not.toMatch(/<script(?! src="\/assets\/console.js")/);

    // Another account's key is unknown here.
    const intruder = new TestBrowser(harness.app);
    await signUp(intruder, 'intruder@example.com');
    expect((await intruder.get(`/keys/${keyId}`)).statusCode).toBe(404);
    const roll = await intruder.post(`/keys/${keyId}/roll`, { grace: 'none' }, { tokenFrom: '/keys' });
    expect(roll.statusCode).toBe(404);
  });
});
