import {
  API_KEY_MODES,
  API_KEY_PREFIXES,
  KEY_EXPIRY_CHOICES,
  KEY_GRACE_CHOICES,
  keyEndsSoon,
  keyStateAt,
  keyWorksAt,
  usageTotals,
  type ApiKeyMode,
  type KeyExpiryChoice,
  type KeyGraceChoice,
} from '@directory/domain';
import { MAX_KEY_NAME_LENGTH, type ApiKeyRecord } from '@directory/keys';
import type { KeyWithUsage } from './keys.service.js';
import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { formatCount, usageChart } from './usage-chart.js';

export type Notice = { tone: 'success' | 'error'; message: string };

/** The per-key request quota the API applies (the same for every key today). */
export type KeyPolicy = { max: number; windowSeconds: number };

const EXPIRY_LABELS: Record<KeyExpiryChoice, string> = {
  never: 'Never',
  '30': 'In 30 days',
  '90': 'In 90 days',
  '365': 'In 365 days',
};

const MODE_LABELS: Record<ApiKeyMode, string> = {
  live: 'Live',
  test: 'Test (sandbox)',
};

const GRACE_LABELS: Record<KeyGraceChoice, string> = {
  none: 'None: the current secret stops working now',
  '1h': '1 hour',
  '24h': '24 hours',
};

type KeysPageOptions = {
  context: PageContext;
  keys: readonly KeyWithUsage[];
  maxActiveKeys: number;
  policy: KeyPolicy;
  now: Date;
  /** Only on the response to the create POST itself: the one time the secret is ever shown. */
  created?: { name: string; secret: string; mode: ApiKeyMode };
  notice?: Notice;
  nameValue?: string;
  modeValue?: ApiKeyMode;
};

function timestamp(date: Date): SafeHtml {
  const text = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

export function policyText(policy: KeyPolicy): string {
  return `${formatCount(policy.max)} requests per ${policy.windowSeconds} s`;
}

/** What a key reads: a test key is marked as a sandbox key wherever it is shown. */
function modeBadge(mode: ApiKeyMode): SafeHtml {
  return mode === 'test'
    ? html`<span class="badge mode-test" data-mode="test">Test</span>`
    : html`<span class="badge mode-live" data-mode="live">Live</span>`;
}

/** The badge, and for a test key what it reads (the list and the usage page). */
function modeCell(mode: ApiKeyMode): SafeHtml {
  return mode === 'test'
    ? html`${modeBadge(mode)}
        <div class="muted small">sandbox: sample data only</div>`
    : modeBadge(mode);
}

function modeSentence(mode: ApiKeyMode): SafeHtml {
  switch (mode) {
    case 'live':
      return html`This is a <strong>live</strong> key: it reads the live directory.`;
    case 'test':
      return html`This is a <strong>test</strong> (sandbox) key: it reads the sandbox's sample data only,
        never the live directory.`;
  }
}

function newSecretPanel(created: { name: string; secret: string; mode: ApiKeyMode }): SafeHtml {
  return html`<section class="card secret-card" aria-labelledby="secret-title">
    <h2 id="secret-title">Your new key “${created.name}” ${modeBadge(created.mode)}</h2>
    <p data-testid="new-secret-mode">${modeSentence(created.mode)}</p>
    <p class="warning" role="alert">
      <strong>Copy it now: this secret won't be shown again.</strong> We store only a hash of it; if you lose
      it, revoke the key and create a new one.
    </p>
    <div class="secret-row">
      <code class="secret" id="new-secret" data-testid="new-secret">${created.secret}</code>
      <button type="button" class="secondary" data-copy-target="new-secret" hidden>Copy</button>
    </div>
    <p class="hint">
      Send it in the <code>X-API-Key</code> header. Keep it in server-side secret storage, never in browser
      code, apps or source control.
    </p>
  </section>`;
}

function statusBadge(key: ApiKeyRecord, now: Date): SafeHtml {
  switch (keyStateAt(key, now)) {
    case 'active':
      return html`<span class="badge active">Active</span>`;
    case 'retiring':
      return html`<span class="badge retiring">Rolled</span>
        <div class="muted small">works until ${key.revokedAt ? timestamp(key.revokedAt) : ''}</div>`;
    case 'expired':
      return html`<span class="badge expired">Expired</span>`;
    case 'revoked':
      return html`<span class="badge revoked">Revoked</span>
        <div class="muted small">${key.revokedAt ? timestamp(key.revokedAt) : ''}</div>`;
  }
}

function expiryCell(key: ApiKeyRecord, now: Date): SafeHtml {
  if (key.expiresAt === null) return html`<span class="muted">Never</span>`;
  const soon = keyEndsSoon({ revokedAt: null, expiresAt: key.expiresAt }, now);
  return html`${timestamp(key.expiresAt)}${soon ? html` <span class="badge warn">Expires soon</span>` : ''}`;
}

function keyRow({ key, usage }: KeyWithUsage, policy: KeyPolicy, now: Date): SafeHtml {
  const totals = usageTotals(usage);
  const rollable = keyStateAt(key, now) === 'active';
  return html`<tr data-key-id="${key.id}">
    <th scope="row">
      ${key.name}
      <div class="key-id muted">${key.id}</div>
    </th>
    <td data-testid="mode">${modeCell(key.mode)}</td>
    <td><code>${key.prefix}…</code></td>
    <td>${timestamp(key.creationTime)}</td>
    <td data-testid="last-used">
      ${key.lastUsedAt ? timestamp(key.lastUsedAt) : html`<span class="muted">Never</span>`}
    </td>
    <td>${expiryCell(key, now)}</td>
    <td data-testid="usage">
      <a href="/keys/${key.id}">${formatCount(totals.requests)} requests</a>
      ${totals.limited > 0 ? html`<div class="small limited-count">${formatCount(totals.limited)} answered 429</div>` : ''}
      <div class="muted small">limit ${policyText(policy)}</div>
    </td>
    <td>${statusBadge(key, now)}</td>
    <td class="actions">
      ${
        rollable
          ? html`<form method="get" action="/keys/${key.id}/roll" class="inline">
              <button type="submit" class="secondary small-button" aria-label="Roll ${key.name}">Roll</button>
            </form>`
          : ''
      }
      ${
        keyWorksAt(key, now)
          ? html`<form method="get" action="/keys/${key.id}/revoke" class="inline">
              <button type="submit" class="danger-outline" aria-label="Revoke ${key.name}">Revoke</button>
            </form>`
          : ''
      }
    </td>
  </tr>`;
}

export function keysPage(options: KeysPageOptions): SafeHtml {
  const activeCount = options.keys.filter(({ key }) => keyWorksAt(key, options.now)).length;
  const notice = options.notice
    ? html`<div
        class="alert ${options.notice.tone}"
        role="${options.notice.tone === 'error' ? 'alert' : 'status'}"
      >
        ${options.notice.message}
      </div>`
    : '';
  const table =
    options.keys.length === 0
      ? html`<p class="empty">No keys yet. Create your first key above.</p>`
      : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              Your API keys
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Mode</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Last 30 days</th>
                <th scope="col">Status</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${options.keys.map((entry) => keyRow(entry, options.policy, options.now))}
            </tbody>
          </table>
        </div>`;
  return layout({
    title: 'API keys',
    context: options.context,
    wide: true,
    body: html`<div class="page-title">
        <h1>API keys</h1>
        <p class="muted">${activeCount} of ${options.maxActiveKeys} active keys in use.</p>
      </div>
      ${notice} ${options.created ? newSecretPanel(options.created) : ''}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        ${
          activeCount >= options.maxActiveKeys
            ? html`<p class="hint">
                You have ${activeCount} active keys, the limit. Revoke one to create another.
              </p>`
            : ''
        }
        <form method="post" action="/keys" class="create-form">
          ${csrfField(options.context.csrfToken)}
          <div class="field grow">
            <label for="name">Key name</label>
            <input
              id="name"
              name="name"
              type="text"
              maxlength="${MAX_KEY_NAME_LENGTH}"
              required
              autocomplete="off"
              placeholder="e.g. production backend"
              value="${options.nameValue ?? ''}"
            />
          </div>
          <div class="field">
            <label for="mode">Mode</label>
            <select id="mode" name="mode" aria-describedby="mode-hint">
              ${API_KEY_MODES.map(
                (mode) =>
                  html`<option value="${mode}" ${mode === (options.modeValue ?? 'live') ? 'selected' : ''}>
                    ${MODE_LABELS[mode]}
                  </option>`,
              )}
            </select>
          </div>
          <div class="field">
            <label for="expiry">Expires</label>
            <select id="expiry" name="expiry">
              ${KEY_EXPIRY_CHOICES.map((choice) => html`<option value="${choice}">${EXPIRY_LABELS[choice]}</option>`)}
            </select>
          </div>
          <button type="submit" class="primary">Create key</button>
        </form>
        <p class="hint" id="mode-hint">
          Live keys (<code>${API_KEY_PREFIXES.live}…</code>) read the directory. Test keys
          (<code>${API_KEY_PREFIXES.test}…</code>) read the sandbox's sample data only, with a request ceiling
          of their own; both count toward your ${options.maxActiveKeys} active keys.
        </p>
      </section>
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Your keys</h2>
        <p class="hint">
          Each key may make ${policyText(options.policy)}. “Last used” and usage are updated about once a
          minute.
        </p>
        ${table}
      </section>`,
  });
}

export function revokeConfirmPage(options: { context: PageContext; key: ApiKeyRecord }): SafeHtml {
  const { key } = options;
  return layout({
    title: 'Revoke key',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Revoke “${key.name}”?</h1>
      <p>
        Requests made with the key <code>${key.prefix}…</code> will be refused (401) from the very next
        request. This cannot be undone.
      </p>
      <form method="post" action="/keys/${key.id}/revoke" class="button-row">
        ${csrfField(options.context.csrfToken)}
        <button type="submit" class="danger">Revoke key</button>
        <a class="button secondary" href="/keys">Cancel</a>
      </form>
    </section>`,
  });
}

export function rollConfirmPage(options: { context: PageContext; key: ApiKeyRecord }): SafeHtml {
  const { key } = options;
  return layout({
    title: 'Roll key',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Roll “${key.name}”?</h1>
      <p>
        A new key with the same name and mode (${MODE_LABELS[key.mode]}) replaces <code>${key.prefix}…</code>;
        its secret is shown once. Choose how long the current secret keeps working, so you can deploy the new
        one first. While both work, both count toward your active keys.
      </p>
      <form method="post" action="/keys/${key.id}/roll">
        ${csrfField(options.context.csrfToken)}
        <fieldset class="choices">
          <legend>Grace period</legend>
          ${KEY_GRACE_CHOICES.map(
            (choice) =>
              html`<label class="choice">
                <input type="radio" name="grace" value="${choice}" ${choice === '1h' ? 'checked' : ''} />
                ${GRACE_LABELS[choice]}
              </label>`,
          )}
        </fieldset>
        <div class="button-row">
          <button type="submit" class="primary">Roll key</button>
          <a class="button secondary" href="/keys">Cancel</a>
        </div>
      </form>
    </section>`,
  });
}

export function keyUsagePage(options: {
  context: PageContext;
  entry: KeyWithUsage;
  policy: KeyPolicy;
  now: Date;
}): SafeHtml {
  const { key, usage } = options.entry;
  const totals = usageTotals(usage);
  return layout({
    title: `Usage of ${key.name}`,
    context: options.context,
    wide: true,
    body: html`<div class="page-title">
        <h1>Usage of “${key.name}”</h1>
        <p><a href="/keys">Back to your keys</a></p>
      </div>
      <section class="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Last 30 days</h2>
        <dl class="facts">
          <div>
            <dt>Mode</dt>
            <dd>${modeCell(key.mode)}</dd>
          </div>
          <div>
            <dt>Requests</dt>
            <dd data-testid="usage-requests">${formatCount(totals.requests)}</dd>
          </div>
          <div>
            <dt>Answered 429 (rate limited)</dt>
            <dd data-testid="usage-limited">${formatCount(totals.limited)}</dd>
          </div>
          <div>
            <dt>Rate limit</dt>
            <dd>${policyText(options.policy)}</dd>
          </div>
          <div>
            <dt>Last used</dt>
            <dd>${key.lastUsedAt ? timestamp(key.lastUsedAt) : 'Never'}</dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>${expiryCell(key, options.now)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>${statusBadge(key, options.now)}</dd>
          </div>
        </dl>
        ${usageChart(usage)}
        <p class="hint">Days are UTC. Counts are updated about once a minute.</p>
      </section>`,
  });
}
