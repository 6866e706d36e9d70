import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailReceiver } from '@directory/testing';
import { consoleMail } from './support/console-forms.js';
import { createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// The account forms' limits (reset requests per address and per e-mail, verification mails and password
// changes per account): every attempt is counted before the work, so parallel posts cannot exceed them,
// and the mails actually sent (read from a real SMTP receiver) never outnumber the admitted requests.

const PASSWORD = 'the-right-password-1234';
const LIMITS = {
  verificationMailsMax: 3,
  resetsPerEmailMax: 3,
  resetsPerAddressMax: 10,
  mailWindowSeconds: 600,
  passwordChangesMax: 4,
  passwordChangeWindowSeconds: 600,
};

type Form = { cookie: string; token: string };

async function formFrom(
  app: FastifyInstance,
  page: string,
  remoteAddress: string,
  cookie = '',
): Promise<Form> {
  const response = await app.inject({ url: page, remoteAddress, headers: cookie === '' ? {} : { cookie } });
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on ${page}`);
  const set = [response.headers['set-cookie'] ?? []].flat().map((value) => String(value).split(';')[0]);
  return { cookie: [cookie, ...set].filter(Boolean).join('; '), token };
}

function post(
  app: FastifyInstance,
  url: string,
  form: Form,
  fields: Record<string, string>,
  remoteAddress: string,
) {
  return app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, _csrf: form.token }).toString(),
  });
}

/** Signs `email` up from `address`; the signed-in form (cookie and token) of `page`. */
async function signedUp(app: FastifyInstance, email: string, address: string, page: string): Promise<Form> {
  const form = await formFrom(app, '/sign-up', address);
  const response = await post(app, '/sign-up', form, { email, password: PASSWORD }, address);
  expect(response.statusCode).toBe(303);
  const session = [response.headers['set-cookie'] ?? []]
    .flat()
    .map((value) => String(value).split(';')[0])
    .join('; ');
  return formFrom(app, page, address, session);
}

const statusesOf = (responses: Array<{ statusCode: number }>) => {
  const counts = new Map<number, number>();
  for (const { statusCode } of responses) counts.set(statusCode, (counts.get(statusCode) ?? 0) + 1);
  return Object.fromEntries(counts);
};

describe('account form limits', () => {
  let harness: SecurityHarness;
  let app: FastifyInstance;
  let mailbox: MailReceiver;

  beforeAll(async () => {
    harness = await createSecurityHarness('security-account-forms');
    const mail = await consoleMail();
    mailbox = mail.receiver;
    app = await harness.console({ mail: mail.mail, accountLimits: LIMITS });
    await signedUp(app, 'victim@example.com', '192.0.2.1', '/account');
  });
  afterAll(() => harness.close());

  /** Waits for the mails still being sent after their answers, then counts those to `email` about `subject`. */
  async function mailCount(email: string, subject: string, atLeast: number): Promise<number> {
    const matching = () =>
      mailbox.mails.filter((mail) => mail.to.includes(email) && mail.subject.includes(subject));
    await mailbox.waitForMail(() => matching().length >= atLeast, 5_000).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300)); // any extra mail would arrive by now
    return matching().length;
  }

  it('mails at most the per-e-mail limit of reset links to one address, from 30 parallel requests on 30 client addresses', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const address = `198.51.100.${index + 1}`;
        const form = await formFrom(app, '/forgot-password', address);
        return post(app, '/forgot-password', form, { email: 'Victim@Example.com' }, address);
      }),
    );
    expect(statusesOf(responses)).toEqual({ 200: 3, 429: 27 });
    expect(
      Number(responses.find((response) => response.statusCode === 429)?.headers['retry-after']),
    ).toBeGreaterThan(0);
    expect(await mailCount('victim@example.com', 'reset your password', 3)).toBe(3);
  });

  it('admits the per-address limit of reset requests from one client, whatever the addresses typed, with one answer for all', async () => {
    const form = await formFrom(app, '/forgot-password', '203.0.113.9');
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        post(app, '/forgot-password', form, { email: `someone-${index}@example.com` }, '203.0.113.9'),
      ),
    );
    expect(statusesOf(responses)).toEqual({ 200: 10, 429: 15 });
    // A throttled answer says nothing about the address: the same page for an unknown one and the victim's.
    const unknown = await post(app, '/forgot-password', form, { email: 'nobody@example.com' }, '203.0.113.9');
    const known = await post(app, '/forgot-password', form, { email: 'victim@example.com' }, '203.0.113.9');
    expect([unknown.statusCode, known.statusCode]).toEqual([429, 429]);
    expect(unknown.body.replace('nobody@example.com', 'X')).toBe(
      known.body.replace('victim@example.com', 'X'),
    );
  });

  it('sends at most the limit of verification mails per account, from 20 parallel requests', async () => {
    const form = await signedUp(app, 'resender@example.com', '192.0.2.2', '/account');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(app, '/verify-email/resend', form, {}, '192.0.2.2')),
    );
    expect(statusesOf(responses)).toEqual({ 200: 3, 429: 17 });
    // The sign-up's own mail, and the three admitted.
    expect(await mailCount('resender@example.com', 'confirm your e-mail address', 4)).toBe(4);
  });

  it('checks at most the limit of current passwords per account, then refuses even the right one', async () => {
    const form = await signedUp(app, 'changer@example.com', '192.0.2.3', '/account');
    // The sign-up's verification mail is made after its answer: let its queries finish first.
    expect(await mailCount('changer@example.com', 'confirm your e-mail address', 1)).toBe(1);
    const queriesBefore = harness.queryCount();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        post(
          app,
          '/account/password',
          form,
          { currentPassword: `guess-${index}`, newPassword: 'a new passphrase' },
          '192.0.2.3',
        ),
      ),
    );
    expect(statusesOf(responses)).toEqual({ 401: 4, 429: 16 });
    const right = await post(
      app,
      '/account/password',
      form,
      { currentPassword: PASSWORD, newPassword: 'a new passphrase' },
      '192.0.2.3',
    );
    expect(right.statusCode).toBe(429);
    // Only the admitted attempts read the account (each request also loads its session: 20 + 1 + 4).
    expect(harness.queryCount() - queriesBefore).toBeLessThanOrEqual(25);
  });

  it('answers forged, altered and foreign link tokens without a token query', async () => {
    const form = await formFrom(app, '/forgot-password', '192.0.2.4');
    const forged = [
      '',
      'x'.repeat(87),
      `${'A'.repeat(43)}.${'B'.repeat(43)}`,
      `${'A'.repeat(43)}.${'B'.repeat(43)}`.repeat(50),
      '../../etc/passwd',
    ];
    const queriesBefore = harness.queryCount();
    for (const token of forged) {
      expect(
        (await post(app, '/reset-password', form, { token, password: 'a new passphrase' }, '192.0.2.4'))
          .statusCode,
      ).toBe(400);
      expect((await post(app, '/verify-email', form, { token }, '192.0.2.4')).statusCode).toBe(400);
      expect(
        (
          await app.inject({
            url: `/reset-password?token=${encodeURIComponent(token)}`,
            remoteAddress: '192.0.2.4',
          })
        ).statusCode,
      ).toBe(400);
    }
    expect(harness.queryCount() - queriesBefore).toBe(0);
  });
});
