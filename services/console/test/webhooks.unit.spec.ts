import { describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '@directory/webhooks';
import {
  FOLLOWABLE_COUNTRIES,
  countryName,
  endpointFormOf,
  formValues,
} from '../src/webhooks/webhooks.form.js';
import { disabledReasonText, endpointPage, webhooksPage } from '../src/webhooks/webhooks.pages.js';

const context = { csrfToken: 'token', signedInAs: 'holder@example.com' };

function endpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 'endpoint-1',
    accountId: 'account-1',
    url: 'https://hooks.example.com/in',
    countries: ['de', 'es'],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: new Date('2026-11-01T10:00:00.000Z'),
    ...overrides,
  };
}

describe('webhook create form', () => {
  it('reads a repeated checkbox field as every value sent, and a single one as a list of one', () => {
    expect(formValues({ countries: ['de', 'it'] }, 'countries')).toEqual(['de', 'it']);
    expect(formValues({ countries: 'pt' }, 'countries')).toEqual(['pt']);
    expect(formValues({}, 'countries')).toEqual([]);
    expect(formValues(null, 'countries')).toEqual([]);
    expect(formValues({ countries: ['de', 7, 'e\u0000s'] }, 'countries')).toEqual(['de']);
  });

  it('keeps the ticked countries in the page order, once each, and the URL trimmed', () => {
    expect(endpointFormOf('  https://a.example/x ', ['pt', 'de', 'pt'])).toEqual({
      url: 'https://a.example/x',
      countries: ['de', 'pt'],
    });
  });

  it('passes an empty country list on (the package refuses it with its reason)', () => {
    expect(endpointFormOf('https://a.example/x', [])).toEqual({ url: 'https://a.example/x', countries: [] });
  });

  it('refuses a country the page does not offer: a dataset without live data, or no dataset', () => {
    expect(FOLLOWABLE_COUNTRIES).not.toContain('fr');
    expect(endpointFormOf('https://a.example/x', ['de', 'fr'])).toBeNull();
    expect(endpointFormOf('https://a.example/x', ['DE'])).toBeNull();
    expect(endpointFormOf('https://a.example/x', ['xx'])).toBeNull();
  });

  it('names the countries in English', () => {
    expect(countryName('de')).toBe('Germany');
    expect(countryName('pt')).toBe('Portugal');
  });
});

describe('webhook pages', () => {
  it('offers every followable country as a checkbox, ticking those of a refused form', () => {
    const page = webhooksPage({ context, endpoints: [], maxEndpoints: 5, countriesValue: ['es'] }).value;
    for (const country of FOLLOWABLE_COUNTRIES)
      expect(page).toMatch(new RegExp(`<input\\s+type="checkbox"\\s+name="countries"\\s+value="${country}"`));
    expect(page).toMatch(/value="es"\s+checked/);
    expect(page).not.toMatch(/value="de"\s+checked/);
    expect(page).toContain('up to 5 endpoints');
  });

  it('escapes what the holder typed and what a receiver answered', () => {
    const hostile = endpoint({
      url: 'https://a.example/"><script>x()</script>',
      enabled: false,
      disabledReason: 'failing since 2026-11-01 (last error <img src=x>)',
    });
    const delivery: WebhookDelivery = {
      id: 'delivery-1',
      endpointId: hostile.id,
      eventType: 'place.changed',
      placeId: null,
      status: 'failed',
      attempts: 2,
      lastStatusCode: 500,
      lastError: '<b>boom</b>',
      lastLatencyMs: 12,
      createdAt: new Date('2026-11-02T10:00:00.000Z'),
      deliveredAt: null,
    };
    const pages = [
      webhooksPage({ context, endpoints: [hostile], maxEndpoints: 5, urlValue: '"><i>' }).value,
      endpointPage({ context, endpoint: hostile, deliveries: [delivery], deliveryLimit: 50 }).value,
    ];
    for (const page of pages) {
      expect(page).not.toContain('<script>x()');
      expect(page).not.toContain('<img src=x>');
      expect(page).toContain('&lt;script&gt;');
    }
    expect(pages[0]).not.toContain('"><i>');
    expect(pages[1]).toContain('&lt;b&gt;boom&lt;/b&gt;');
    expect(pages[1]).toMatch(/data-status="failed"\s*>Failed</);
  });

  it('tells a pending delivery already tried as retrying', () => {
    const delivery: WebhookDelivery = {
      id: 'delivery-2',
      endpointId: 'endpoint-1',
      eventType: 'doctor.upserted',
      placeId: 'place-1',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      lastLatencyMs: 40,
      createdAt: new Date('2026-11-02T10:00:00.000Z'),
      deliveredAt: null,
    };
    const page = (attempts: number) =>
      endpointPage({
        context,
        endpoint: endpoint(),
        deliveries: [{ ...delivery, attempts }],
        deliveryLimit: 50,
      }).value;
    expect(page(1)).toMatch(/data-status="pending"\s*>Retrying</);
    expect(page(0)).toMatch(/data-status="pending"\s*>Pending</);
    expect(page(1)).toContain('<code>place-1</code>');
  });

  it('tells a disabled endpoint at the top of the page, with its reason; a failing one by its date', () => {
    const disabled = endpoint({
      enabled: false,
      disabledReason: 'failing since 2026-11-01T10:00:00.000Z: HTTP 500',
      failingSince: new Date('2026-11-01T10:00:00.000Z'),
    });
    const failing = endpoint({ id: 'endpoint-2', failingSince: new Date('2026-11-03T08:00:00.000Z') });
    const page = webhooksPage({ context, endpoints: [disabled, failing], maxEndpoints: 5 }).value;
    const notice = /data-testid="disabled-notice"[^>]*>([\s\S]*?)<\/div>/.exec(page)?.[1] ?? '';
    expect(notice).toContain('Disabled: failing since 2026-11-01 10:00 UTC (last error HTTP 500)');
    expect(page.indexOf('data-testid="disabled-notice"')).toBeLessThan(page.indexOf('create-title'));
    expect(page).toContain('data-status="failing"');
    expect(page).toContain('<time datetime="2026-11-03T08:00:00.000Z">2026-11-03 08:00 UTC</time>');
    // An endpoint the holder switched off is marked, without an alarm.
    const switchedOff = webhooksPage({
      context,
      endpoints: [endpoint({ enabled: false })],
      maxEndpoints: 5,
    }).value;
    expect(switchedOff).toContain('data-status="disabled"');
    expect(switchedOff).not.toContain('data-testid="disabled-notice"');
  });

  it("tells the worker's reason as when the endpoint began failing and its last error; other reasons as recorded", () => {
    const since = new Date('2026-11-26T09:00:00.000Z');
    const disabled = (disabledReason: string | null, failingSince: Date | null = since) =>
      disabledReasonText(endpoint({ enabled: false, disabledReason, failingSince }));
    expect(disabled('failing since 2026-11-26T09:00:00.000Z: connect ETIMEDOUT')).toBe(
      'failing since 2026-11-26 09:00 UTC (last error connect ETIMEDOUT)',
    );
    expect(disabled('failing since 2026-11-25T09:00:00.000Z: HTTP 500')).toBe(
      'failing since 2026-11-25T09:00:00.000Z: HTTP 500',
    );
    expect(disabled('failing since 2026-11-26T09:00:00.000Z: HTTP 500', null)).toBe(
      'failing since 2026-11-26T09:00:00.000Z: HTTP 500',
    );
    expect(disabled('disabled by the operator')).toBe('disabled by the operator');
    expect(disabled(null)).toBe('switched off in the console');
  });
});
