import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, hashApiKey, isWellFormedApiKey } from '@directory/domain';
import { findActiveKeyBySecret } from '@directory/keys';
import { TestBrowser, signUp, startConsole, type ConsoleHarness } from './support/console-harness.js';

const NEW_SECRET = /data-testid="new-secret"[^>]*>([^<]+)</;
const ANY_SECRET = new RegExp(API_KEY_PATTERN.source, 'g');

function secretIn(html: string): string {
  const secret = NEW_SECRET.exec(html)?.[1];
  if (secret === undefined) throw new Error('no new secret on the page');
  return secret;
}

function keyIdOf(html: string, name: string): string {
  const match = new RegExp(`<tr data-key-id="([^"]+)">\\s*<th scope="row">\\s*${name}\\s*<`).exec(html);
  if (!match?.[1]) throw new Error(`no row for ${name}`);
  return match[1];
}

describe('console keys page', () => {
  let harness: ConsoleHarness;
  let browser: TestBrowser;
  beforeAll(async () => {
    harness = await startConsole('console-keys');
    browser = new TestBrowser(harness.app);
    await signUp(browser, 'keys@example.com');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('redirects to sign-in without a session', async () => {
    const response = await new TestBrowser(harness.app).get('/keys');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/sign-in');
  });

  it('shows a new secret once, stores only its hash, and never shows it again', async () => {
    const page = await browser.get('/keys');
    expect(page.body).toContain('<label for="name">Key name</label>');
    expect(page.body).toContain('>Create key</button>');

    const created = await browser.post('/keys', { name: 'production backend' });
    expect(created.statusCode).toBe(200);
    const secret = secretIn(created.body);
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(created.body).toContain("won't be shown again");
    expect(created.body).toContain('data-replace-url="/keys"');
    expect(created.headers['cache-control']).toBe('no-store');

    const stored = await harness.database.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
    expect(stored.secret_hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(await findActiveKeyBySecret(harness.database.db, secret)).toMatchObject({
      name: 'production backend',
    });

    const again = await browser.get('/keys');
    expect(again.body).not.toContain(secret);
    expect(again.body).not.toMatch(ANY_SECRET);
    expect(again.body).not.toContain('data-testid="new-secret"');
    expect(again.body).toContain(`${secret.slice(0, 12)}…`);
    expect(again.body).toMatch(/<tr data-key-id="[^"]+">\s*<th scope="row">\s*production backend\s*</);
    expect(harness.logs.join('\n')).not.toContain(secret);
  });

  it('escapes key names', async () => {
    const created = await browser.post('/keys', { name: '<script>alert(1)</script>' });
    expect(created.statusCode).toBe(200);
    expect(created.body).not.toContain('<script>alert(1)</script>');
    expect(created.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses a sixth active key with a message naming the limit', async () => {
    for (const name of ['third', 'fourth', 'fifth'])
      expect((await browser.post('/keys', { name })).statusCode).toBe(200);
    const sixth = await browser.post('/keys', { name: 'sixth' });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.body).toContain('5 active keys, which is the limit. Revoke one first');
    expect(sixth.body).not.toContain('data-testid="new-secret"');
    const count = await harness.database.db.selectFrom('api_keys').select('id').execute();
    expect(count).toHaveLength(5);
  });

  it('revokes a key after a confirmation; the key stops working and frees a slot', async () => {
    const list = await browser.get('/keys');
    const keyId = keyIdOf(list.body, 'third');
    const secretHash = (
      await harness.database.db
        .selectFrom('api_keys')
        .select('secret_hash')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow()
    ).secret_hash;

    const confirm = await browser.get(`/keys/${keyId}/revoke`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('>Revoke key</button>');
    const revoked = await browser.post(`/keys/${keyId}/revoke`, {});
    expect(revoked.statusCode).toBe(200);
    expect(revoked.body).toContain('Key “third” revoked');
    const row = await harness.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect(row.secret_hash).toBe(secretHash);
    expect(revoked.body).toMatch(new RegExp(`data-key-id="${keyId}">[\\s\\S]*?Revoked`));

    expect((await browser.post('/keys', { name: 'replacement' })).statusCode).toBe(200);
  });

  it("cannot see or revoke another account's key", async () => {
    const list = await browser.get('/keys');
    const keyId = keyIdOf(list.body, 'fourth');
    const intruder = new TestBrowser(harness.app);
    await signUp(intruder, 'intruder@example.com');
    expect((await intruder.get(`/keys/${keyId}/revoke`)).headers.location).toBe('/keys');
    const attempt = await intruder.post(`/keys/${keyId}/revoke`, {}, { tokenFrom: '/keys' });
    expect(attempt.statusCode).toBe(404);
    const row = await harness.database.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
    expect((await intruder.get('/keys')).body).not.toContain('fourth');
  });
});
