import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActiveKeyBySecret } from '@directory/keys';
import { TestBrowser, signUp, startConsole, type ConsoleHarness } from './support/console-harness.js';

const NEW_SECRET = /data-testid="new-secret"[^>]*>([^<]+)</;

function secretIn(html: string): string {
  const secret = NEW_SECRET.exec(html)?.[1];
  if (secret === undefined) throw new Error('no new secret on the page');
  return secret;
}

/** The mode cell of the list's row for the key named `name`. */
function modeCellOf(html: string, name: string): string {
  for (const match of html.matchAll(/<tr data-key-id="[^"]+">([\s\S]*?)<\/tr>/g)) {
    const cells = match[1] ?? '';
    if (/<th scope="row">([^<]*)</.exec(cells)?.[1]?.trim() !== name) continue;
    const mode = /<td data-testid="mode">([\s\S]*?)<\/td>/.exec(cells)?.[1];
    if (mode === undefined) throw new Error(`no mode cell for ${name}`);
    return mode;
  }
  throw new Error(`no row for ${name}`);
}

describe('console: live and test (sandbox) keys', () => {
  let harness: ConsoleHarness;
  let browser: TestBrowser;
  const keyCount = async () =>
    (await harness.database.db.selectFrom('api_keys').select('id').execute()).length;

  beforeAll(async () => {
    harness = await startConsole('console-key-modes');
    browser = new TestBrowser(harness.app);
    await signUp(browser, 'modes@example.com');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('offers the mode on the create form, live chosen by default', async () => {
    const page = await browser.get('/keys');
    expect(page.body).toContain('<label for="mode">Mode</label>');
    expect(page.body).toMatch(/<select id="mode" name="mode"[^>]*>/);
    expect(page.body).toMatch(/<option value="live" selected>\s*Live\s*<\/option>/);
    expect(page.body).toMatch(/<option value="test"\s*>\s*Test \(sandbox\)\s*<\/option>/);
  });

  it('creates a test key through the form: a dk_test_ secret, said to be a sandbox key, marked test in the list', async () => {
    const created = await browser.post(
      '/keys',
      { name: 'sandbox build', mode: 'test' },
      { tokenFrom: '/keys' },
    );
    expect(created.statusCode).toBe(200);
    const secret = secretIn(created.body);
    expect(secret).toMatch(/^dk_test_/);
    expect(await findActiveKeyBySecret(harness.database.db, secret)).toMatchObject({
      name: 'sandbox build',
      mode: 'test',
    });
    expect(created.body).toMatch(/data-testid="new-secret-mode">[^<]*<strong>test<\/strong> \(sandbox\) key/);

    const list = await browser.get('/keys');
    const cell = modeCellOf(list.body, 'sandbox build');
    expect(cell).toContain('data-mode="test"');
    expect(cell).toContain('>Test</span>');
    expect(cell).toContain('sandbox: sample data only');
    expect(cell).not.toContain('data-mode="live"');
  });

  it('creates a live key when the form sends no mode (a page from before modes), marked live', async () => {
    const created = await browser.post('/keys', { name: 'production' }, { tokenFrom: '/keys' });
    expect(created.statusCode).toBe(200);
    const secret = secretIn(created.body);
    expect(secret).toMatch(/^dk_live_/);
    expect(await findActiveKeyBySecret(harness.database.db, secret)).toMatchObject({ mode: 'live' });
    expect(created.body).toMatch(/data-testid="new-secret-mode">[^<]*<strong>live<\/strong> key/);

    const list = await browser.get('/keys');
    const cell = modeCellOf(list.body, 'production');
    expect(cell).toContain('data-mode="live"');
    expect(cell).toContain('>Live</span>');
    expect(cell).not.toContain('sandbox');
    // The test key made before is still marked as one beside it.
    expect(modeCellOf(list.body, 'sandbox build')).toContain('data-mode="test"');
  });

  it('refuses a mode the form does not offer (400, like a bad expiry) and creates no key', async () => {
    const before = await keyCount();
    for (const mode of ['staging', 'LIVE', 'test ']) {
      const refused = await browser.post('/keys', { name: `odd ${mode}`, mode }, { tokenFrom: '/keys' });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Request not accepted');
      expect(refused.body).not.toContain('data-testid="new-secret"');
    }
    expect(await keyCount()).toBe(before);
  });

  it('keeps the chosen mode selected when a test key is refused for its name', async () => {
    const refused = await browser.post('/keys', { name: '   ', mode: 'test' }, { tokenFrom: '/keys' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/<option value="test" selected>/);
    expect(refused.body).not.toMatch(/<option value="live" selected>/);
  });

  it('counts test keys toward the same five active keys as live ones', async () => {
    for (const name of ['third', 'fourth', 'fifth'])
      expect((await browser.post('/keys', { name, mode: 'test' })).statusCode).toBe(200);
    const sixth = await browser.post('/keys', { name: 'sixth', mode: 'test' });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.body).toContain('5 active keys, which is the limit');
    expect(await keyCount()).toBe(5);
  });

  it('rolls a test key into a test key, the new secret said to be a sandbox key', async () => {
    const list = await browser.get('/keys');
    const keyId =
      /<tr data-key-id="([^"]+)">\s*<th scope="row">\s*sandbox build\s*</.exec(list.body)?.[1] ?? '';
    expect((await browser.get(`/keys/${keyId}/roll`)).body).toContain('same name and mode (Test (sandbox))');
    const rolled = await browser.post(
      `/keys/${keyId}/roll`,
      { grace: 'none' },
      { tokenFrom: `/keys/${keyId}/roll` },
    );
    expect(rolled.statusCode).toBe(200);
    expect(secretIn(rolled.body)).toMatch(/^dk_test_/);
    expect(rolled.body).toMatch(/data-testid="new-secret-mode">[^<]*<strong>test<\/strong>/);
  });
});
