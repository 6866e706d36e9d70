import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildConsoleApp, type ConsoleDependencies } from '../../src/app.js';
import { sql } from 'kysely';
import {
  createTestDatabase,
  createTestRedis,
  startMailReceiver,
  type MailReceiver,
  type TestDatabase,
  type TestRedis,
} from '@directory/testing';
import { createSmtpMailer } from '../../src/mail/mailer.js';

export const PASSWORD = 'correct horse battery';

/** The origin the console's mailed links use in these specs (CONSOLE_PUBLIC_URL). */
export const CONSOLE_ORIGIN = 'https://console.test';

// Each harness's database, for `signUp` (which marks the address verified, as a followed link would).
const databases = new WeakMap<FastifyInstance, TestDatabase>();

export type ConsoleHarness = {
  app: FastifyInstance;
  database: TestDatabase;
  redis: TestRedis;
  /** The local SMTP server the console mails to: the real mails, parsed. */
  mailbox: MailReceiver;
  logs: string[];
  close: () => Promise<void>;
};

/** A console app on a database and Redis prefix of the spec's own; logs are captured for inspection. */
export async function startConsole(
  label: string,
  overrides: Partial<ConsoleDependencies> = {},
  options: { mailDelayMs?: number } = {},
): Promise<ConsoleHarness> {
  const database = await createTestDatabase(label);
  const redis = createTestRedis(label);
  const logs: string[] = [];
  const mailbox = await startMailReceiver({ delayMs: options.mailDelayMs });
  const mailer = createSmtpMailer({ smtpUrl: mailbox.url, from: 'Doctor Directory <no-reply@console.test>' });
  const app = await buildConsoleApp(
    {
      db: database.db,
      redis: redis.redis,
      redisPrefix: redis.prefix,
      secret: 'test-console-secret-of-at-least-32-chars',
      sessionTtlSeconds: 3600,
      login: { maxFailures: 3, maxPerAccount: 50, maxPerAddress: 100, windowSeconds: 60 },
      signUp: { max: 100, windowSeconds: 60 },
      // inject() connects from 127.0.0.1: tests choose client addresses with X-Forwarded-For.
      trustedProxies: ['127.0.0.1'],
      clientIpv6PrefixBits: 64,
      keyPolicy: { max: 120, windowSeconds: 60 },
      mail: { mailer, publicUrl: CONSOLE_ORIGIN },
      accountLimits: {
        verificationMailsMax: 5,
        resetsPerEmailMax: 3,
        resetsPerAddressMax: 20,
        mailWindowSeconds: 3600,
        passwordChangesMax: 5,
        passwordChangeWindowSeconds: 60,
      },
      ...overrides,
    },
    { logLevel: 'info', logStream: { write: (line) => void logs.push(line) } },
  );
  databases.set(app, database);
  return {
    app,
    database,
    redis,
    mailbox,
    logs,
    close: async () => {
      await app.close(); // closes the mailer too
      await mailbox.close();
      await redis.cleanup();
      await database.drop();
    },
  };
}

/** A minimal browser: a cookie jar, and form posts that carry the CSRF token of the last page seen. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  lastHtml = '';

  constructor(
    readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method: 'GET', url, headers: this.requestHeaders() });
    return this.remember(response);
  }

  /**
   * Posts a form. The CSRF token comes from `tokenFrom` (fetched first) or the last page seen, unless
   * `csrf` is 'none' (no token) or an explicit token.
   */
  async post(
    url: string,
    fields: Record<string, string>,
    options: { csrf?: 'page' | 'none' | { token: string }; tokenFrom?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams(fields);
    const csrf = options.csrf ?? 'page';
    if (typeof csrf === 'object') body.set('_csrf', csrf.token);
    else if (csrf === 'page') {
      if (options.tokenFrom !== undefined) await this.get(options.tokenFrom);
      body.set('_csrf', csrfTokenIn(this.lastHtml));
    }
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { ...this.requestHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
    return this.remember(response);
  }

  private requestHeaders(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return cookie === '' ? { ...this.headers } : { ...this.headers, cookie };
  }

  private remember(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        cookie.value === '' ||
        cookie.maxAge === 0 ||
        (cookie.expires !== undefined && cookie.expires < new Date());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    if ((response.headers['content-type'] ?? '').toString().startsWith('text/html'))
      this.lastHtml = response.body;
    return response;
  }
}

export function csrfTokenIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no CSRF token on the page');
  return match[1];
}

/**
 * Signs up through the form, then marks the address verified directly in the database (as following the
 * mailed link would; `account-email.int.spec.ts` follows the real link): the specs of keys and webhooks
 * start from a verified account. `{ verified: false }` leaves it as sign-up does.
 */
export async function signUp(
  browser: TestBrowser,
  email: string,
  password = PASSWORD,
  options: { verified?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const response = await browser.post('/sign-up', { email, password }, { tokenFrom: '/sign-up' });
  const database = databases.get(browser.app);
  if (options.verified !== false && response.statusCode === 303 && database !== undefined)
    await sql`update accounts set email_verified_at = now() where lower(email) = lower(${email})`.execute(
      database.db,
    );
  return response;
}
