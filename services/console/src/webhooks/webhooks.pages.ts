import type { CountryCode } from '@directory/domain';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '@directory/webhooks';
import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { FOLLOWABLE_COUNTRIES, countryName } from './webhooks.form.js';

export type Notice = { tone: 'success' | 'error'; message: string };

function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function timestamp(date: Date): SafeHtml {
  return html`<time datetime="${date.toISOString()}">${utcMinute(date)}</time>`;
}

/** To the second: deliveries of one minute are told apart in the log. */
function preciseTimestamp(date: Date): SafeHtml {
  const text = `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

function noticeBanner(notice: Notice | undefined): SafeHtml | '' {
  if (notice === undefined) return '';
  return html`<div class="alert ${notice.tone}" role="${notice.tone === 'error' ? 'alert' : 'status'}">
    ${notice.message}
  </div>`;
}

function countryList(countries: readonly CountryCode[]): SafeHtml {
  return html`${countries.map(
    (country, index) =>
      html`${index === 0 ? '' : ', '}<abbr title="${countryName(country)}">${country}</abbr>`,
  )}`;
}

/**
 * Why a disabled endpoint is off. The worker records "failing since <ISO instant>: <last error>" (the
 * instant is the endpoint's failingSince), told here as "failing since 2026-11-26 09:00 UTC (last error
 * HTTP 503)"; any other reason is shown as recorded. No reason: the holder switched it off.
 */
export function disabledReasonText(endpoint: WebhookEndpoint): string {
  const reason = endpoint.disabledReason;
  if (reason === null) return 'switched off in the console';
  if (endpoint.failingSince === null) return reason;
  const recorded = `failing since ${endpoint.failingSince.toISOString()}: `;
  if (!reason.startsWith(recorded)) return reason;
  return `failing since ${utcMinute(endpoint.failingSince)} (last error ${reason.slice(recorded.length)})`;
}

function statusCell(endpoint: WebhookEndpoint): SafeHtml {
  if (!endpoint.enabled)
    return html`<span class="badge revoked" data-status="disabled">Disabled</span>
      <div class="muted small">${disabledReasonText(endpoint)}</div>`;
  if (endpoint.failingSince !== null)
    return html`<span class="badge warn" data-status="failing">Failing</span>
      <div class="muted small">since ${timestamp(endpoint.failingSince)}</div>`;
  return html`<span class="badge active" data-status="enabled">Enabled</span>`;
}

/** One notice per endpoint the webhooks package turned off, at the top of the page. */
function disabledNotices(endpoints: readonly WebhookEndpoint[]): SafeHtml[] {
  return endpoints
    .filter((endpoint) => !endpoint.enabled && endpoint.disabledReason !== null)
    .map(
      (endpoint) =>
        html`<div
          class="alert error"
          role="alert"
          data-testid="disabled-notice"
          data-endpoint-id="${endpoint.id}"
        >
          <strong>${endpoint.url}</strong> — Disabled: ${disabledReasonText(endpoint)}. Fix the receiver, then
          <a href="/webhooks/${endpoint.id}">enable it again</a>.
        </div>`,
    );
}

function newSecretPanel(created: { url: string; secret: string }): SafeHtml {
  return html`<section class="card secret-card" aria-labelledby="secret-title">
    <h2 id="secret-title">Signing secret of ${created.url}</h2>
    <p class="warning" role="alert">
      <strong>Copy it now: this secret won't be shown again.</strong> If you lose it, delete the endpoint and
      add it again.
    </p>
    <div class="secret-row">
      <code class="secret" id="new-secret" data-testid="new-secret">${created.secret}</code>
      <button type="button" class="secondary" data-copy-target="new-secret" hidden>Copy</button>
    </div>
    <p class="hint">
      Every delivery is signed as Standard Webhooks describes: it carries the headers
      <code>webhook-id</code>, <code>webhook-timestamp</code> (Unix seconds) and
      <code>webhook-signature</code> (<code>v1,</code> then the Base64 HMAC-SHA256 of
      <code>webhook-id.webhook-timestamp.body</code>, keyed with the Base64-decoded part of the secret after
      <code>whsec_</code>). Check the signature against the raw body before parsing it, and refuse a timestamp
      more than five minutes old. A Standard Webhooks library does both from this secret.
    </p>
  </section>`;
}

function endpointRow(endpoint: WebhookEndpoint): SafeHtml {
  return html`<tr data-endpoint-id="${endpoint.id}">
    <th scope="row">
      <a href="/webhooks/${endpoint.id}" class="endpoint-url">${endpoint.url}</a>
      <div class="key-id muted">${endpoint.id}</div>
    </th>
    <td data-testid="countries">${countryList(endpoint.countries)}</td>
    <td>${timestamp(endpoint.createdAt)}</td>
    <td data-testid="status">${statusCell(endpoint)}</td>
  </tr>`;
}

function countryChoices(chosen: readonly CountryCode[]): SafeHtml {
  return html`<fieldset class="choices">
    <legend>Countries to follow</legend>
    ${FOLLOWABLE_COUNTRIES.map(
      (country) =>
        html`<label class="choice">
          <input
            type="checkbox"
            name="countries"
            value="${country}"
            ${chosen.includes(country) ? 'checked' : ''}
          />
          ${countryName(country)} (<code>${country}</code>)
        </label>`,
    )}
  </fieldset>`;
}

export type WebhooksPageOptions = {
  context: PageContext;
  endpoints: readonly WebhookEndpoint[];
  maxEndpoints: number;
  /** Only on the response to the create POST itself: the one time the signing secret is ever shown. */
  created?: { url: string; secret: string };
  notice?: Notice;
  urlValue?: string;
  countriesValue?: readonly CountryCode[];
};

export function webhooksPage(options: WebhooksPageOptions): SafeHtml {
  const { endpoints, maxEndpoints } = options;
  const table =
    endpoints.length === 0
      ? html`<p class="empty">No endpoints yet. Add your first one above.</p>`
      : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              Your webhook endpoints
            </caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Countries</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              ${endpoints.map(endpointRow)}
            </tbody>
          </table>
        </div>`;
  return layout({
    title: 'Webhooks',
    context: options.context,
    wide: true,
    body: html`<div class="page-title">
        <h1>Webhooks</h1>
        <p class="muted">${endpoints.length} of ${maxEndpoints} endpoints in use.</p>
      </div>
      ${disabledNotices(endpoints)} ${noticeBanner(options.notice)}
      ${options.created ? newSecretPanel(options.created) : ''}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Add an endpoint</h2>
        <p class="hint">
          The directory POSTs a signed JSON event to your endpoint when a place in a country it follows is
          added, changed or removed. An account may have up to ${maxEndpoints} endpoints; delete one to add
          another.
        </p>
        <form method="post" action="/webhooks">
          ${csrfField(options.context.csrfToken)}
          <div class="field">
            <label for="url">Endpoint URL</label>
            <input
              id="url"
              name="url"
              type="url"
              required
              autocomplete="off"
              placeholder="https://example.com/directory-webhooks"
              aria-describedby="url-hint"
              value="${options.urlValue ?? ''}"
            />
            <p class="hint" id="url-hint">
              HTTPS only, on a public host: addresses of private, loopback or link-local networks are refused.
            </p>
          </div>
          ${countryChoices(options.countriesValue ?? [])}
          <div class="button-row">
            <button type="submit" class="primary">Add endpoint</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Your endpoints</h2>
        ${table}
      </section>`,
  });
}

const DELIVERY_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  abandoned: 'Abandoned',
};

/** A pending delivery that was already tried is waiting for its next retry. */
function deliveryLabel(delivery: WebhookDelivery): string {
  return delivery.status === 'pending' && delivery.attempts > 0
    ? 'Retrying'
    : DELIVERY_LABELS[delivery.status];
}

const DELIVERY_BADGES: Record<WebhookDeliveryStatus, string> = {
  pending: 'retiring',
  delivered: 'active',
  failed: 'warn',
  abandoned: 'expired',
};

function deliveryRow(delivery: WebhookDelivery): SafeHtml {
  return html`<tr data-delivery-id="${delivery.id}">
    <td>${preciseTimestamp(delivery.createdAt)}</td>
    <td data-testid="event-type"><code>${delivery.eventType}</code></td>
    <td>
      ${delivery.placeId === null ? html`<span class="muted">—</span>` : html`<code>${delivery.placeId}</code>`}
    </td>
    <td data-testid="delivery-status">
      <span class="badge ${DELIVERY_BADGES[delivery.status]}" data-status="${delivery.status}"
        >${deliveryLabel(delivery)}</span
      >
    </td>
    <td>${delivery.lastStatusCode ?? html`<span class="muted">—</span>`}</td>
    <td>${delivery.lastLatencyMs ?? html`<span class="muted">—</span>`}</td>
    <td>${delivery.attempts}</td>
    <td class="small">${delivery.lastError ?? html`<span class="muted">—</span>`}</td>
  </tr>`;
}

export type EndpointPageOptions = {
  context: PageContext;
  endpoint: WebhookEndpoint;
  deliveries: readonly WebhookDelivery[];
  deliveryLimit: number;
  notice?: Notice;
};

export function endpointPage(options: EndpointPageOptions): SafeHtml {
  const { endpoint, deliveries } = options;
  const toggle = endpoint.enabled
    ? html`<form method="post" action="/webhooks/${endpoint.id}/disable" class="inline">
        ${csrfField(options.context.csrfToken)}
        <button type="submit" class="secondary">Disable</button>
      </form>`
    : html`<form method="post" action="/webhooks/${endpoint.id}/enable" class="inline">
        ${csrfField(options.context.csrfToken)}
        <button type="submit" class="primary">Enable</button>
      </form>`;
  const log =
    deliveries.length === 0
      ? html`<p class="empty">No deliveries yet. Send a test event to see one.</p>`
      : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              Deliveries to this endpoint, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Place</th>
                <th scope="col">Status</th>
                <th scope="col">HTTP</th>
                <th scope="col">Latency (ms)</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              ${deliveries.map(deliveryRow)}
            </tbody>
          </table>
        </div>`;
  return layout({
    title: `Webhook ${endpoint.url}`,
    context: options.context,
    wide: true,
    body: html`<div class="page-title">
        <h1 class="endpoint-url">${endpoint.url}</h1>
        <p><a href="/webhooks">Back to your webhooks</a></p>
      </div>
      ${disabledNotices([endpoint])} ${noticeBanner(options.notice)}
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <dl class="facts">
          <div>
            <dt>Id</dt>
            <dd><code>${endpoint.id}</code></dd>
          </div>
          <div>
            <dt>Countries</dt>
            <dd data-testid="countries">${countryList(endpoint.countries)}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>${timestamp(endpoint.createdAt)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd data-testid="status">${statusCell(endpoint)}</dd>
          </div>
        </dl>
        <div class="button-row">
          ${toggle}
          ${
            endpoint.enabled
              ? html`<form method="post" action="/webhooks/${endpoint.id}/test" class="inline">
                  ${csrfField(options.context.csrfToken)}
                  <button type="submit" class="secondary">Send test event</button>
                </form>`
              : ''
          }
          <form method="get" action="/webhooks/${endpoint.id}/delete" class="inline">
            <button type="submit" class="danger-outline">Delete</button>
          </form>
        </div>
      </section>
      <section class="card" aria-labelledby="log-title">
        <h2 id="log-title">Delivery log</h2>
        <p class="hint">
          The latest ${options.deliveryLimit} deliveries, newest first. A delivery the endpoint does not
          answer with a 2xx in time is retried several times, then marked failed; the deliveries still pending
          when an endpoint is disabled are abandoned.
          ${endpoint.enabled ? '' : 'Enable the endpoint to send a test event.'}
        </p>
        ${log}
      </section>`,
  });
}

export function deleteConfirmPage(options: { context: PageContext; endpoint: WebhookEndpoint }): SafeHtml {
  const { endpoint } = options;
  return layout({
    title: 'Delete webhook endpoint',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Delete this endpoint?</h1>
      <p>
        <code class="endpoint-url">${endpoint.url}</code> receives no further events, and its delivery log is
        deleted with it. This cannot be undone.
      </p>
      <form method="post" action="/webhooks/${endpoint.id}/delete" class="button-row">
        ${csrfField(options.context.csrfToken)}
        <button type="submit" class="danger">Delete endpoint</button>
        <a class="button secondary" href="/webhooks/${endpoint.id}">Cancel</a>
      </form>
    </section>`,
  });
}
