import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleMail } from './support/console-forms.js';
import { addressInNetwork, createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// Console sign-in and sign-up throttles: attempts are counted before the password is checked, per
// account and address pair, per account and per address, each separately; sign-ups per address.

const PASSWORD = 'the-right-password-1234';

type Form = { cookie: string; token: string };

async function formFrom(app: FastifyInstance, page: string, remoteAddress: string): Promise<Form> {
  const response = await app.inject({ url: page, remoteAddress });
  const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on ${page}`);
  const cookie = [response.headers['set-cookie']]
    .flat()
    .map((value) => String(value).split(';')[0])
    .join('; ');
  return { cookie, token };
}

function post(
  app: FastifyInstance,
  url: string,
  form: Form,
  fields: Record<string, string>,
  remoteAddress: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { ...headers, cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, _csrf: form.token }).toString(),
  });
}

describe('console throttles', () => {
  let harness: SecurityHarness;
  let app: FastifyInstance;

  beforeAll(async () => {
    harness = await createSecurityHarness('security-console');
    const { mail, receiver } = await consoleMail();
    app = await harness.console({
      login: { maxFailures: 5, maxPerAccount: 12, maxPerAddress: 20, windowSeconds: 60 },
      signUp: { max: 3, windowSeconds: 600 },
      mail,
    });
    const form = await formFrom(app, '/sign-up', '192.0.2.200');
    for (const email of ['target@example.com', 'spread@example.com']) {
      expect(
        (await post(app, '/sign-up', form, { email, password: PASSWORD }, '192.0.2.200')).statusCode,
      ).toBe(303);
    }
    // Each sign-up mails its verification link after answering: let those queries finish before any
    // spec counts queries.
    await receiver.waitForMail(() => receiver.mails.length >= 2);
  });
  afterAll(() => harness.close());

  it('checks at most the configured number of 50 parallel wrong-password sign-ins for one account', async () => {
    const form = await formFrom(app, '/sign-in', '198.51.100.20');
    const queriesBefore = harness.queryCount();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        post(
          app,
          '/sign-in',
          form,
          { email: 'target@example.com', password: `wrong-guess-${index}` },
          '198.51.100.20',
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    // Only the admitted attempts reached the database at all: each looked the account up and wrote its
    // failed sign-in to the account's activity log.
    expect(harness.queryCount() - queriesBefore).toBeLessThanOrEqual(5 * 2);
    const throttled = responses.find((response) => response.statusCode === 429);
    expect(Number(throttled?.headers['retry-after'])).toBeGreaterThan(0);

    // The right password from that address is refused too: the throttle is no oracle.
    const right = await post(
      app,
      '/sign-in',
      form,
      { email: 'target@example.com', password: PASSWORD },
      '198.51.100.20',
    );
    expect(right.statusCode).toBe(429);
    // The owner, elsewhere, still signs in.
    const ownerForm = await formFrom(app, '/sign-in', '192.0.2.10');
    const owner = await post(
      app,
      '/sign-in',
      ownerForm,
      { email: 'target@example.com', password: PASSWORD },
      '192.0.2.10',
    );
    expect(owner.statusCode).toBe(303);
  });

  it('stops guesses at one account spread over many addresses (per account)', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 14; index += 1) {
      const address = `203.0.113.${index + 1}`;
      const form = await formFrom(app, '/sign-in', address);
      const response = await post(
        app,
        '/sign-in',
        form,
        { email: 'spread@example.com', password: `guess-${index}-x` },
        address,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 12).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });

  it('stops one address trying many accounts (per address)', async () => {
    const form = await formFrom(app, '/sign-in', '198.51.100.30');
    const statuses: number[] = [];
    for (let index = 0; index < 22; index += 1) {
      const response = await post(
        app,
        '/sign-in',
        form,
        { email: `nobody-${index}@example.com`, password: 'whatever-password' },
        '198.51.100.30',
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('counts every address of one IPv6 /64 as one client in the sign-in and sign-up limits', async () => {
    // Behind a trusted proxy, each request from another address of the same /64.
    const proxied = await harness.console({
      trustedProxies: ['10.0.0.0/8'],
      login: { maxFailures: 5, maxPerAccount: 1_000, maxPerAddress: 10, windowSeconds: 60 },
      signUp: { max: 3, windowSeconds: 600 },
    });
    const proxy = '10.0.0.7';
    const from = (network: string, index: number) => ({
      'x-forwarded-for': addressInNetwork(network, index),
    });
    const form = await formFrom(proxied, '/sign-in', proxy);
    const attempt = async (network: string, index: number, email: string) =>
      (
        await post(
          proxied,
          '/sign-in',
          form,
          { email, password: `guess-${index}-xx` },
          proxy,
          from(network, index),
        )
      ).statusCode;

    // One account, guessed at from ever new addresses of one /64: the account-and-address limit holds.
    const guesses: number[] = [];
    for (let index = 0; index < 7; index += 1) {
      guesses.push(await attempt('2001:db8:c:1', index, 'v6-target@example.com'));
    }
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Many accounts from the next /64: the per-address limit holds.
    const sweep: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      sweep.push(await attempt('2001:db8:c:2', index, `nobody-${index}@example.com`));
    }
    expect(sweep).toEqual([...Array<number>(10).fill(401), 429, 429]);
    // A third /64 has a budget of its own.
    expect(await attempt('2001:db8:c:3', 0, 'v6-target@example.com')).toBe(401);

    const signUpForm = await formFrom(proxied, '/sign-up', proxy);
    const signUps: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await post(
        proxied,
        '/sign-up',
        signUpForm,
        { email: `v6-${index}@example.com`, password: PASSWORD },
        proxy,
        from('2001:db8:d:1', index),
      );
      signUps.push(response.statusCode);
    }
    expect(signUps).toEqual([303, 303, 303, 429, 429]);
    const elsewhere = await post(
      proxied,
      '/sign-up',
      signUpForm,
      { email: 'v6-elsewhere@example.com', password: PASSWORD },
      proxy,
      from('2001:db8:d:2', 0),
    );
    expect(elsewhere.statusCode).toBe(303);
  });

  it('throttles sign-ups per address', async () => {
    const form = await formFrom(app, '/sign-up', '198.51.100.40');
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await post(
        app,
        '/sign-up',
        form,
        { email: `new-${index}@example.com`, password: PASSWORD },
        '198.51.100.40',
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(response.body).toContain('Too many sign-ups');
      }
    }
    expect(statuses).toEqual([303, 303, 303, 429, 429]);
    const elsewhere = await formFrom(app, '/sign-up', '198.51.100.41');
    const other = await post(
      app,
      '/sign-up',
      elsewhere,
      { email: 'new-elsewhere@example.com', password: PASSWORD },
      '198.51.100.41',
    );
    expect(other.statusCode).toBe(303);
  });
});
