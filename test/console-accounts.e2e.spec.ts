import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleStack, type ConsoleStack } from './console-stack.fixture.js';
import { totpEnrolAndNextCodes } from '../services/console/src/accounts/two-factor.js';

const PASSWORD = 'e2e password 1234';
const NEW_PASSWORD = 'e2e new password 5678';
const EMAIL = 'walk@example.com';

// One holder's walk through the account features in headless Chromium, against the console and API
// processes and a real SMTP receiver: every link followed is one the console mailed.
describe('console accounts in a real browser: verify, key, two-factor sign-in, reset', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let consoleUrl: string;

  beforeAll(async () => {
    stack = await startConsoleStack('console-accounts-e2e');
    ({ browser, consoleUrl } = stack);
  });

  afterAll(() => stack?.close());

  it('signs up, verifies, creates a key, enables 2FA, signs in with a code, resets the password by mail: every old session ends', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/sign-up`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${consoleUrl}/keys`);
    await stack.verifyEmail(page, EMAIL);

    await page.goto(`${consoleUrl}/keys`);
    await page.getByLabel('Key name').fill('walk key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    const api = await fetch(`${stack.apiUrl}/api/v1/key`, { headers: { 'x-api-key': secret } });
    expect(api.status).toBe(200);

    // Two-factor: the QR code is drawn in the page (no remote image), the key typed from beside it.
    await page.goto(`${consoleUrl}/account`);
    await page.getByRole('link', { name: 'Two-factor sign-in' }).click();
    await expect.poll(() => page.locator('[data-testid="totp-qr"] svg').count()).toBe(1);
    const totp = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    const codes = totpEnrolAndNextCodes(totp, new Date());
    await page.getByLabel('Code from the app').fill(codes.enrol);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${consoleUrl}/sign-in`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${consoleUrl}/sign-in/two-factor`);
    await page.getByRole('textbox', { name: 'Code' }).fill(codes.next);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${consoleUrl}/keys`);
    expect(await page.getByTestId('signed-in-as').textContent()).toContain(EMAIL);

    // Reset by mail, from another browser: this one's session (and every other) ends.
    const other = await browser.newContext();
    const visitor = await other.newPage();
    await visitor.goto(`${consoleUrl}/forgot-password`);
    await visitor.getByLabel('Email').fill(EMAIL);
    await visitor.getByRole('button', { name: 'Mail me a link' }).click();
    const mail = await stack.mailbox.waitForMail(
      (received) => received.to.includes(EMAIL) && received.subject.includes('reset'),
      10_000,
    );
    const link = mail.links.find((candidate) => candidate.startsWith(`${consoleUrl}/reset-password?token=`));
    expect(link).toBeDefined();
    await visitor.goto(link ?? '');
    await visitor.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await visitor.getByRole('button', { name: 'Set the new password' }).click();
    await visitor.getByText('Your new password is set.').waitFor();

    await page.goto(`${consoleUrl}/keys`);
    await page.waitForURL(`${consoleUrl}/sign-in`);
    const sessions = await stack.database.db.selectFrom('console_sessions').select('id').execute();
    expect(sessions).toEqual([]);
    await Promise.all([context.close(), other.close()]);
  });
});
