import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_COUNTRY_CODES } from '@directory/domain';
import {
  TestBrowser,
  csrfTokenIn,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';

/** Test events an account may send per window in this spec. */
const TEST_EVENTS_MAX = 3;

const NEW_SECRET = /data-testid="new-secret"[^>]*>([^<]+)</;

/** Host names the spec's resolver knows: one public, one inside a private network. */
const ADDRESSES: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'other.example.com': ['93.184.216.35'],
  'internal.example.com': ['93.184.216.36', '10.1.2.3'],
};

/** The create form with several countries ticked (a repeated field, which TestBrowser.post does not send). */
async function postCreateForm(
  harness: ConsoleHarness,
  browser: TestBrowser,
  url: string,
  countries: readonly string[],
): Promise<LightMyRequestResponse> {
  const token = csrfTokenIn((await browser.get('/webhooks')).body);
  const body = new URLSearchParams([
    ['_csrf', token],
    ['url', url],
    ...countries.map((country): [string, string] => ['countries', country]),
  ]);
  return harness.app.inject({
    method: 'POST',
    url: '/webhooks',
    headers: {
      cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: body.toString(),
  });
}

function endpointIdsIn(html: string): string[] {
  return [...html.matchAll(/<tr data-endpoint-id="([^"]+)">/g)].map((match) => match[1] ?? '');
}

describe('console: webhook endpoints', () => {
  let harness: ConsoleHarness;
  let holder: TestBrowser;
  let other: TestBrowser;
  let endpointId: string;
  let secret: string;

  const endpointRows = async () =>
    harness.database.db.selectFrom('webhook_endpoints').select(['id', 'account_id', 'enabled']).execute();

  beforeAll(async () => {
    harness = await startConsole('console-webhooks', {
      webhooks: {
        limits: { testEventsMax: TEST_EVENTS_MAX, endpointChangesMax: 100, windowSeconds: 3_600 },
        options: {
          secretKey: 'console-webhooks-spec-secret-key-0123456789',
          allowLoopback: false,
          resolve: (host) => Promise.resolve(ADDRESSES[host] ?? []),
        },
      },
    });
    holder = new TestBrowser(harness.app);
    other = new TestBrowser(harness.app);
    await signUp(holder, 'hooks@example.com');
    await signUp(other, 'other-hooks@example.com');
  });
  afterAll(async () => {
    await harness.close();
  });

  it('adds no endpoint for an account whose address is not verified yet (403), then does once it is', async () => {
    const unverified = new TestBrowser(harness.app);
    await signUp(unverified, 'unverified-hooks@example.com', undefined, { verified: false });
    const before = (await endpointRows()).length;
    const refused = await postCreateForm(harness, unverified, 'https://hooks.example.com/unverified', ['de']);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Confirm your e-mail address first');
    expect(await endpointRows()).toHaveLength(before);

    const mail = await harness.mailbox.waitForMail((received) =>
      received.to.includes('unverified-hooks@example.com'),
    );
    const token = new URL(mail.links[0] ?? 'https://console.test/').searchParams.get('token') ?? '';
    expect((await unverified.post('/verify-email', { token }, { tokenFrom: '/account' })).statusCode).toBe(
      200,
    );
    const added = await postCreateForm(harness, unverified, 'https://hooks.example.com/unverified', ['de']);
    expect(added.statusCode).toBe(200);
    expect(await endpointRows()).toHaveLength(before + 1);
    // The other specs here count every endpoint: this one goes.
    await harness.database.db
      .deleteFrom('webhook_endpoints')
      .where('url', '=', 'https://hooks.example.com/unverified')
      .execute();
  });

  it('sends a signed-out visitor to the sign-in page, and links the pages from the navigation', async () => {
    const signedOut = await new TestBrowser(harness.app).get('/webhooks');
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/sign-in');
    const keys = await holder.get('/keys');
    expect(keys.body).toContain('<a href="/webhooks">Webhooks</a>');
  });

  it('offers an HTTPS URL and the live countries as checkboxes, with the limit of five explained', async () => {
    const page = await holder.get('/webhooks');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('0 of 5 endpoints in use.');
    expect(page.body).toContain('up to 5 endpoints');
    expect(page.body).toMatch(/<form method="post" action="\/webhooks">/);
    const boxes = [...page.body.matchAll(/<input\s+type="checkbox"\s+name="countries"\s+value="([a-z]+)"/g)];
    expect(boxes.map((match) => match[1])).toEqual([...LIVE_COUNTRY_CODES]);
    expect(page.body).toContain('Germany (<code>de</code>)');
  });

  it('creates an endpoint and shows its whsec_ secret once, with how to verify; never again, never logged', async () => {
    const created = await postCreateForm(harness, holder, 'https://hooks.example.com/directory', [
      'it',
      'de',
    ]);
    expect(created.statusCode).toBe(200);
    secret = NEW_SECRET.exec(created.body)?.[1] ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body).toContain("this secret won't be shown again");
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(created.body).toContain(`<code>${header}</code>`);
    expect(created.body).toContain('data-copy-target="new-secret"');
    expect(created.body).toContain('data-replace-url="/webhooks"');

    const rows = await endpointRows();
    expect(rows).toHaveLength(1);
    endpointId = rows[0]?.id ?? '';
    expect(endpointIdsIn(created.body)).toEqual([endpointId]);

    const list = await holder.get('/webhooks');
    const detail = await holder.get(`/webhooks/${endpointId}`);
    for (const page of [list, detail]) {
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(secret);
      expect(page.body).not.toContain('data-testid="new-secret"');
    }
    expect(list.body).toContain('1 of 5 endpoints in use.');
    expect(list.body).toMatch(/data-testid="countries">[\s\S]*?>de<\/abbr>, <abbr[^>]*>it<\/abbr>/);
    expect(detail.body).toContain('https://hooks.example.com/directory');
    expect(harness.logs.join('\n')).toContain('webhook endpoint created');
    expect(harness.logs.join('\n')).not.toContain(secret.slice('whsec_'.length));
    // Stored encrypted, never in clear.
    const stored = await harness.database.db
      .selectFrom('webhook_endpoints')
      .select('secret_ciphertext')
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret_ciphertext).toString('latin1')).not.toContain(secret.slice(6, 20));
  });

  it('refuses a plain-http URL, a host resolving to a private address and no country, keeping the form', async () => {
    const refusals: Array<{ fields: Record<string, string>; reason: string }> = [
      { fields: { url: 'http://example.com/hook', countries: 'de' }, reason: 'the URL must use https' },
      {
        fields: { url: 'https://internal.example.com/hook', countries: 'es' },
        reason: 'the host of the URL is not a public address we can deliver to',
      },
      { fields: { url: 'https://other.example.com/hook' }, reason: 'choose at least one country' },
    ];
    for (const { fields, reason } of refusals) {
      const refused = await holder.post('/webhooks', fields, { tokenFrom: '/webhooks' });
      expect(refused.statusCode, reason).toBe(400);
      expect(refused.body).toContain(`The endpoint was not added: ${reason}.`);
      expect(refused.body).toContain(`value="${fields.url ?? ''}"`);
      expect(refused.body).not.toContain('data-testid="new-secret"');
    }
    const kept = await holder.post(
      '/webhooks',
      { url: 'http://example.com/hook', countries: 'es' },
      { tokenFrom: '/webhooks' },
    );
    expect(kept.body).toMatch(/value="es"\s+checked/);
    expect(await endpointRows()).toHaveLength(1);
  });

  it('refuses a country the form does not offer as a whole (400), making nothing', async () => {
    const refused = await postCreateForm(harness, holder, 'https://other.example.com/hook', ['de', 'fr']);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Request not accepted');
    expect(await endpointRows()).toHaveLength(1);
  });

  it('refuses every form post without the CSRF token (403), changing nothing', async () => {
    await holder.get('/webhooks');
    const posts = [
      holder.post('/webhooks', { url: 'https://other.example.com/x', countries: 'de' }, { csrf: 'none' }),
      holder.post(`/webhooks/${endpointId}/disable`, {}, { csrf: 'none' }),
      holder.post(`/webhooks/${endpointId}/test`, {}, { csrf: 'none' }),
      holder.post(`/webhooks/${endpointId}/delete`, {}, { csrf: 'none' }),
    ];
    for (const response of await Promise.all(posts)) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Form expired');
    }
    expect(await endpointRows()).toEqual([expect.objectContaining({ id: endpointId, enabled: true })]);
    const deliveries = await harness.database.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(deliveries).toEqual([]);
  });

  it("answers another account's endpoint (and an id that is none) with 404 on every page and form", async () => {
    for (const id of [endpointId, 'not-a-uuid']) {
      expect((await other.get(`/webhooks/${id}`)).statusCode).toBe(404);
      expect((await other.get(`/webhooks/${id}/delete`)).statusCode).toBe(404);
      for (const action of ['disable', 'enable', 'test', 'delete']) {
        const response = await other.post(`/webhooks/${id}/${action}`, {}, { tokenFrom: '/webhooks' });
        expect(response.statusCode, action).toBe(404);
        expect(response.body).toContain('Endpoint not found');
      }
    }
    expect((await other.get('/webhooks')).body).not.toContain(endpointId);
    expect(await endpointRows()).toEqual([expect.objectContaining({ id: endpointId, enabled: true })]);
  });

  it('sends a test event only for an account with a live key, lists it in the log, and refuses past the budget (429)', async () => {
    const send = () =>
      holder.post(`/webhooks/${endpointId}/test`, {}, { tokenFrom: `/webhooks/${endpointId}` });
    const testEvents = () =>
      harness.database.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'event_type', 'status'])
        .where('endpoint_id', '=', endpointId)
        .execute();
    const noKey = await send();
    expect(noKey.statusCode).toBe(409);
    expect(noKey.body).toContain('webhooks need an active live API key');
    expect(await testEvents()).toEqual([]);

    const { account_id: accountId } = await harness.database.db
      .selectFrom('webhook_endpoints')
      .select('account_id')
      .where('id', '=', endpointId)
      .executeTakeFirstOrThrow();
    await harness.database.db
      .insertInto('api_keys')
      .values({
        id: 'spec-live-key',
        account_id: accountId,
        name: 'live',
        prefix: 'dk_live_spec',
        secret_hash: '!',
      })
      .execute();
    const sent = await send();
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Test event made.');
    const [delivery, ...others] = await testEvents();
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending' });

    const log = (await holder.get(`/webhooks/${endpointId}`)).body;
    const row = new RegExp(`<tr data-delivery-id="${delivery?.id}">([\\s\\S]*?)</tr>`).exec(log)?.[1] ?? '';
    expect(row).toContain('<code>webhook.test</code>');
    expect(row).toContain('data-status="pending"');
    expect(row).toMatch(/<td>0<\/td>/); // no attempt yet

    // The budget counts every request, the refused one without a key too: one more is allowed, then 429.
    expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Your account has used its test events for now');
    expect(await testEvents()).toHaveLength(TEST_EVENTS_MAX - 1);
  });

  it('disables and enables an endpoint; a disabled one gets no test event', async () => {
    const disabled = await holder.post(
      `/webhooks/${endpointId}/disable`,
      {},
      { tokenFrom: `/webhooks/${endpointId}` },
    );
    expect(disabled.statusCode).toBe(200);
    expect(disabled.body).toContain('Endpoint disabled');
    expect(disabled.body).toContain('data-status="disabled"');
    expect(disabled.body).toContain(`action="/webhooks/${endpointId}/enable"`);
    expect(disabled.body).not.toContain(`action="/webhooks/${endpointId}/test"`);
    expect(await endpointRows()).toEqual([expect.objectContaining({ enabled: false })]);

    const refused = await holder.post(`/webhooks/${endpointId}/test`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('enable it to send a test event');

    const enabled = await holder.post(
      `/webhooks/${endpointId}/enable`,
      {},
      { tokenFrom: `/webhooks/${endpointId}` },
    );
    expect(enabled.statusCode).toBe(200);
    expect(enabled.body).toContain('data-status="enabled"');
    expect(enabled.body).toContain(`action="/webhooks/${endpointId}/disable"`);
    expect(await endpointRows()).toEqual([expect.objectContaining({ enabled: true })]);
  });

  it('tells an endpoint the deliveries turned off at the top of the list and of its page', async () => {
    // As the worker records it when an endpoint has failed for too long.
    await harness.database.db
      .updateTable('webhook_endpoints')
      .set({
        enabled: false,
        disabled_reason: 'failing since 2026-11-26T09:00:00.000Z: HTTP 503',
        failing_since: new Date('2026-11-26T09:00:00.000Z'),
      })
      .where('id', '=', endpointId)
      .execute();
    for (const url of ['/webhooks', `/webhooks/${endpointId}`]) {
      const page = (await holder.get(url)).body;
      const notice = /data-testid="disabled-notice"[^>]*>([\s\S]*?)<\/div>/.exec(page);
      expect(notice?.[1], url).toContain(
        'Disabled: failing since 2026-11-26 09:00 UTC (last error HTTP 503)',
      );
      expect(page.indexOf('data-testid="disabled-notice"')).toBeLessThan(page.indexOf('<section'));
    }
    // Enabling again clears the reason.
    await holder.post(`/webhooks/${endpointId}/enable`, {}, { tokenFrom: `/webhooks/${endpointId}` });
    expect((await holder.get('/webhooks')).body).not.toContain('data-testid="disabled-notice"');
  });

  it('refuses a sixth endpoint (409) with the limit as the reason', async () => {
    for (let index = 1; index <= 5; index++) {
      const created = await other.post(
        '/webhooks',
        { url: `https://other.example.com/${index}`, countries: 'pt' },
        { tokenFrom: '/webhooks' },
      );
      expect(created.statusCode).toBe(200);
    }
    const sixth = await other.post(
      '/webhooks',
      { url: 'https://other.example.com/6', countries: 'pt' },
      { tokenFrom: '/webhooks' },
    );
    expect(sixth.statusCode).toBe(409);
    expect(sixth.body).toContain('at most 5 webhook endpoints');
    expect(sixth.body).toContain('5 of 5 endpoints in use.');
  });

  it('deletes an endpoint after a confirmation page', async () => {
    const confirm = await holder.get(`/webhooks/${endpointId}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete this endpoint?');
    const deleted = await holder.post(`/webhooks/${endpointId}/delete`, {});
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toContain('Endpoint https://hooks.example.com/directory deleted.');
    expect(endpointIdsIn(deleted.body)).toEqual([]);
    expect((await holder.get(`/webhooks/${endpointId}`)).statusCode).toBe(404);
  });
});
