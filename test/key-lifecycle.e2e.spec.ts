import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyVouches } from '@directory/keys';
import type { TestDatabase, TestRedis } from '@directory/testing';
import { startConsoleStack, type ConsoleStack } from './console-stack.fixture.js';

describe('key expiry, rolling and usage in a real browser, against the real API', () => {
  let stack: ConsoleStack;
  let database: TestDatabase;
  let redis: TestRedis;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    // Usage leaves the API every second here (a minute by default), so the page shows it quickly.
    stack = await startConsoleStack('keys-e2e', { KEY_USAGE_FLUSH_INTERVAL_S: '1' });
    ({ database, redis, browser, consoleUrl, apiUrl } = stack);
    page = await (await browser.newContext()).newPage();
    await page.goto(`${consoleUrl}/sign-up`);
    await page.getByLabel('Email').fill('lifecycle-e2e@example.com');
    await page.getByLabel('Password').fill('e2e password 1234');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${consoleUrl}/keys`);
    await stack.verifyEmail(page, 'lifecycle-e2e@example.com');
    await page.goto(`${consoleUrl}/keys`);
  });

  afterAll(() => stack?.close());

  async function callApi(secret: string): Promise<{ status: number; detail?: string; id?: string }> {
    const response = await fetch(`${apiUrl}/api/v1/key`, { headers: { 'x-api-key': secret } });
    const body = (await response.json()) as { detail?: string; key?: { id: string } };
    return { status: response.status, detail: body.detail, id: body.key?.id };
  }

  async function createKey(name: string, expiry = 'Never'): Promise<string> {
    await page.getByLabel('Key name').fill(name);
    await page.getByLabel('Expires').selectOption({ label: expiry });
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForLoadState('domcontentloaded');
    return (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
  }

  const rowsNamed = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) });

  it('shows when a key used through the API was last used, and how many requests it made', async () => {
    const secret = await createKey('used');
    await expect(rowsNamed('used').getByTestId('last-used').textContent()).resolves.toContain('Never');
    for (let request = 0; request < 3; request += 1) expect((await callApi(secret)).status).toBe(200);

    // The request count and the last use reach the console by different paths (the last use is
    // written by the periodic usage flush): wait until the page shows both.
    const lastUsedPattern = /\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/;
    const deadline = Date.now() + 20_000;
    let usage = '';
    let lastUsed = '';
    do {
      await page.goto(`${consoleUrl}/keys`);
      usage = (await rowsNamed('used').getByTestId('usage').textContent()) ?? '';
      lastUsed = (await rowsNamed('used').getByTestId('last-used').textContent()) ?? '';
    } while (!(usage.includes('3 requests') && lastUsedPattern.test(lastUsed)) && Date.now() < deadline);
    expect(usage).toContain('3 requests');
    expect(usage).toContain('limit');
    expect(lastUsed).toMatch(lastUsedPattern);

    // The usage page: totals and the chart, drawn on the server.
    await rowsNamed('used').getByRole('link', { name: '3 requests' }).click();
    await expect(page.getByTestId('usage-requests').textContent()).resolves.toBe('3');
    expect(await page.locator('svg[role=img]').getAttribute('aria-label')).toContain('3 in all');
  });

  it('refuses a key whose expiry has passed with a 401 saying so, and shows it as expired', async () => {
    await page.goto(`${consoleUrl}/keys`);
    const secret = await createKey('expiring', 'In 30 days');
    expect((await callApi(secret)).status).toBe(200);
    // The expiry passes (set through the store, as 30 days would), after the bar every write to a key's
    // row starts with (key-vouches.ts).
    const { id } = await database.db
      .selectFrom('api_keys')
      .select('id')
      .where('name', '=', 'expiring')
      .executeTakeFirstOrThrow();
    await createKeyVouches(redis.redis, redis.prefix).bar(id);
    await database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('name', '=', 'expiring')
      .execute();
    const refused = await callApi(secret);
    expect(refused.status).toBe(401);
    expect(refused.detail).toMatch(/expired/);

    await page.goto(`${consoleUrl}/keys`);
    const row = rowsNamed('expiring');
    await expect(row.textContent()).resolves.toContain('Expired');
    expect(await row.getByRole('button', { name: /Roll/ }).count()).toBe(0);
  });

  it('rolls with a one-hour grace period (both secrets work, both listed) and with none (only the new one works)', async () => {
    await page.goto(`${consoleUrl}/keys`);
    const graceful = await createKey('graceful');
    await rowsNamed('graceful').getByRole('button', { name: 'Roll graceful' }).click();
    await page.getByLabel('1 hour').check();
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.waitForLoadState('domcontentloaded');
    const successor = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect(successor).not.toBe(graceful);
    expect((await callApi(graceful)).status).toBe(200);
    expect((await callApi(successor)).status).toBe(200);
    await page.goto(`${consoleUrl}/keys`);
    expect(await rowsNamed('graceful').count()).toBe(2);
    await expect(rowsNamed('graceful').filter({ hasText: 'Rolled' }).textContent()).resolves.toContain(
      'works until',
    );

    const immediate = await createKey('immediate');
    await rowsNamed('immediate').getByRole('button', { name: 'Roll immediate' }).click();
    await page.getByLabel('None: the current secret stops working now').check();
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.waitForLoadState('domcontentloaded');
    const replacement = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect((await callApi(immediate)).status).toBe(401);
    expect((await callApi(replacement)).status).toBe(200);
    await page.goto(`${consoleUrl}/keys`);
    expect(await rowsNamed('immediate').filter({ hasText: 'Revoked' }).count()).toBe(1);
    expect(await rowsNamed('immediate').filter({ hasText: 'Active' }).count()).toBe(1);
  });
});
