import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '@directory/domain';
import { REPOSITORY_ROOT, type TestDatabase } from '@directory/testing';
import { startConsoleStack, type ConsoleStack } from './console-stack.fixture.js';

const PASSWORD = 'e2e password 1234';

describe('key console in a real browser, against the real API', () => {
  let stack: ConsoleStack;
  let database: TestDatabase;
  let browser: Browser;
  let consoleUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    stack = await startConsoleStack('console-e2e');
    ({ database, browser, consoleUrl, apiUrl } = stack);
  });

  afterAll(() => stack?.close());

  async function keyStatus(secret: string): Promise<{ status: number; name?: string }> {
    const response = await fetch(`${apiUrl}/api/v1/key`, { headers: { 'x-api-key': secret } });
    const body = (await response.json()) as { key?: { name: string } };
    return { status: response.status, name: body.key?.name };
  }

  async function createKey(page: Page, name: string): Promise<void> {
    await page.getByLabel('Key name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForLoadState('domcontentloaded');
  }

  it('signs up, creates five working keys, refuses a sixth, never shows a secret twice, revokes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();

    // No session: /keys sends the visitor to sign in.
    await page.goto(`${consoleUrl}/keys`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await page.goto(`${consoleUrl}/sign-up`);
    await page.getByLabel('Email').fill('e2e@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${consoleUrl}/keys`);
    // Live keys need the address confirmed: the real mail's link, followed in the browser.
    await expect(page.getByTestId('verify-banner').isVisible()).resolves.toBe(true);
    await stack.verifyEmail(page, 'e2e@example.com');
    await page.goto(`${consoleUrl}/keys`);
    expect(await page.getByTestId('verify-banner').count()).toBe(0);

    const secrets = new Map<string, string>();
    for (let index = 1; index <= 5; index += 1) {
      const name = `key ${index}`;
      await createKey(page, name);
      const secret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(new RegExp(`^${API_KEY_PATTERN.source}$`));
      await expect(page.getByText("this secret won't be shown again").isVisible()).resolves.toBe(true);
      expect(await page.getByRole('row').filter({ hasText: name }).count()).toBe(1);
      // Works against the API at once.
      expect(await keyStatus(secret)).toEqual({ status: 200, name });
      secrets.set(name, secret);
    }

    await createKey(page, 'key 6');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(
      '5 active keys, which is the limit. Revoke one first',
    );
    expect(await page.getByTestId('new-secret').count()).toBe(0);

    // Reload (and a fresh GET): prefixes, never a secret.
    for (const load of [() => page.reload(), () => page.goto(`${consoleUrl}/keys`)]) {
      await load();
      const html = await page.content();
      expect(html).not.toMatch(new RegExp(API_KEY_PATTERN.source));
      for (const secret of secrets.values()) {
        expect(html).not.toContain(secret);
        expect(html).toContain(secret.slice(0, 12));
      }
      expect(await page.getByTestId('new-secret').count()).toBe(0);
    }

    await mkdir(join(REPOSITORY_ROOT, 'test-results'), { recursive: true });

    // Revoke "key 2" through the confirmation page.
    await page.getByRole('row').filter({ hasText: 'key 2' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForLoadState('domcontentloaded');
    expect(await page.getByRole('row').filter({ hasText: 'key 2' }).textContent()).toContain('Revoked');
    expect(await keyStatus(secrets.get('key 2') ?? '')).toEqual({ status: 401, name: undefined });
    for (const name of ['key 1', 'key 3', 'key 4', 'key 5']) {
      expect(await keyStatus(secrets.get(name) ?? '')).toEqual({ status: 200, name });
    }

    // A slot is free again; reloading the page that showed the new secret must not post again.
    await createKey(page, 'key 6');
    await page.setViewportSize({ width: 1200, height: 1100 });
    await page.screenshot({
      path: join(REPOSITORY_ROOT, 'test-results/console-keys-new-secret.png'),
      fullPage: true,
    });
    const newSecret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect(await keyStatus(newSecret)).toEqual({ status: 200, name: 'key 6' });
    await page.reload();
    expect(await page.getByTestId('new-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(newSecret);
    const rows = await database.db.selectFrom('api_keys').select('id').execute();
    expect(rows).toHaveLength(6);
    await page.screenshot({ path: join(REPOSITORY_ROOT, 'test-results/console-keys.png'), fullPage: true });

    // A form post without the CSRF token is refused, even with the session cookie.
    const forged = await context.request.post(`${consoleUrl}/keys`, {
      form: { name: 'forged' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(6);

    // Sign out: the session is gone.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${consoleUrl}/sign-in`);
    await page.goto(`${consoleUrl}/keys`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });

  it('signs back in with the password; a wrong password is refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/sign-in`);
    await page.getByLabel('Email').fill('e2e@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Email or password is incorrect.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${consoleUrl}/keys`);
    expect(await page.getByRole('row').filter({ hasText: 'key 1' }).count()).toBe(1);
    await context.close();
  });

  it('the console closes gracefully on SIGTERM', async () => {
    expect(await stack.console.stop('SIGTERM')).toBe(0);
    expect(stack.console.output()).toMatch(/"msg":"closing"/);
  });
});
