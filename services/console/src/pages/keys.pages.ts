import { MAX_KEY_NAME_LENGTH, type ApiKeyRecord } from '@directory/keys';
import { html, type SafeHtml } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';

export type Notice = { tone: 'success' | 'error'; message: string };

type KeysPageOptions = {
  context: PageContext;
  keys: readonly ApiKeyRecord[];
  maxActiveKeys: number;
  /** Only on the response to the create POST itself: the one time the secret is ever shown. */
  created?: { name: string; secret: string };
  notice?: Notice;
  nameValue?: string;
};

function timestamp(date: Date): SafeHtml {
  const text = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

function newSecretPanel(created: { name: string; secret: string }): SafeHtml {
  return html`<section class="card secret-card" aria-labelledby="secret-title">
    <h2 id="secret-title">Your new key “${created.name}”</h2>
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

function keyRow(key: ApiKeyRecord): SafeHtml {
  const active = key.revokedAt === null;
  return html`<tr data-key-id="${key.id}">
    <th scope="row">
      ${key.name}
      <div class="key-id muted">${key.id}</div>
    </th>
    <td><code>${key.prefix}…</code></td>
    <td>${timestamp(key.creationTime)}</td>
    <td>
      ${active ? html`<span class="badge active">Active</span>` : html`<span class="badge revoked">Revoked</span> <span class="muted small">${key.revokedAt ? timestamp(key.revokedAt) : ''}</span>`}
    </td>
    <td class="actions">
      ${
        active
          ? html`<form method="get" action="/keys/${key.id}/revoke" class="inline">
              <button type="submit" class="danger-outline" aria-label="Revoke ${key.name}">Revoke</button>
            </form>`
          : ''
      }
    </td>
  </tr>`;
}

export function keysPage(options: KeysPageOptions): SafeHtml {
  const activeCount = options.keys.filter((key) => key.revokedAt === null).length;
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
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${options.keys.map(keyRow)}
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
          <button type="submit" class="primary">Create key</button>
        </form>
      </section>
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Your keys</h2>
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
