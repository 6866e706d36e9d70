import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '@directory/config';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  freePort,
  startMailReceiver,
  startProcess,
  type MailReceiver,
  type RunningProcess,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import { launchChromium } from './browser.fixture.js';

/** The API and the console as processes of their own, on a database, Redis prefix and index of their own, and a browser. */
export type ConsoleStack = {
  database: TestDatabase;
  redis: TestRedis;
  api: RunningProcess;
  console: RunningProcess;
  apiUrl: string;
  consoleUrl: string;
  browser: Browser;
  /** The SMTP server the console mails to (SMTP_URL): the mails it sent, parsed. */
  mailbox: MailReceiver;
  /** Follows the verification link mailed to `email` in `page` and confirms (live keys need it). */
  verifyEmail: (page: Page, email: string) => Promise<void>;
  /** Stops the browser and both processes, and removes what they used. */
  close: () => Promise<void>;
};

/** Starts the stack the console's browser specs drive; `env` adds to (or overrides) the processes' settings. */
export async function startConsoleStack(
  label: string,
  env: Record<string, string> = {},
): Promise<ConsoleStack> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const search = createTestSearch(label);
  const alias = `${search.prefix}_doctors`;
  await ensureDoctorsIndex(search.client, alias);
  const [apiPort, consolePort] = [await freePort(), await freePort()];
  const mailbox = await startMailReceiver();
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  const processEnv = {
    DATABASE_URL: database.url,
    REDIS_URL: loadConfig().REDIS_URL,
    REDIS_PREFIX: redis.prefix,
    ELASTICSEARCH_INDEX: alias,
    HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    CONSOLE_PORT: String(consolePort),
    LOG_LEVEL: 'info',
    SMTP_URL: mailbox.url,
    CONSOLE_PUBLIC_URL: consoleUrl,
    ...env,
  };
  const api = startProcess('services/api/src/server.ts', [], processEnv);
  const consoleProcess = startProcess('services/console/src/server.ts', [], processEnv);
  const cleanUp = async () => {
    await Promise.all([api, consoleProcess].map((process) => process.stop('SIGTERM')));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
    await mailbox.close();
  };
  let browser: Browser;
  try {
    await Promise.all([
      api.waitForOutput(/Server listening at/),
      consoleProcess.waitForOutput(/Server listening at/),
    ]);
    browser = await launchChromium();
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    database,
    redis,
    api,
    console: consoleProcess,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    consoleUrl,
    browser,
    mailbox,
    verifyEmail: async (page, email) => {
      const mail = await mailbox.waitForMail((received) => received.to.includes(email), 10_000);
      const link = mail.links.find((candidate) => candidate.startsWith(`${consoleUrl}/verify-email?token=`));
      if (link === undefined) throw new Error('the verification mail holds no verification link');
      await page.goto(link);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Your e-mail address is confirmed.').waitFor();
    },
    close: async () => {
      await browser.close();
      await cleanUp();
    },
  };
}
