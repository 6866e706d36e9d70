import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { noticeBox, timestamp, type Notice } from '../pages/notice.js';
import { browserNameOf } from './session-origin.js';
import type { SessionListing } from './session.repository.js';

/** The account's sessions, each with its sign-out button, and "sign out everywhere". */
export function sessionsPage(options: {
  context: PageContext;
  sessions: ReadonlyArray<SessionListing & { handle: string; current: boolean }>;
  notice?: Notice;
}): SafeHtml {
  const rows = options.sessions.map(
    (session) =>
      html`<tr data-testid="session">
        <th scope="row">
          ${browserNameOf(session.userAgent)}${session.current ? html` <span class="badge active">This browser</span>` : ''}
        </th>
        <td>${session.addressRange ?? 'unknown'}</td>
        <td>${timestamp(session.createdAt)}</td>
        <td>${timestamp(session.lastSeenAt)}</td>
        <td class="actions">
          <form method="post" action="/account/sessions/${session.handle}/sign-out" class="inline">
            ${csrfField(options.context.csrfToken)}
            <button type="submit" class="danger-outline">Sign out</button>
          </form>
        </td>
      </tr>`,
  );
  return layout({
    title: 'Sessions',
    context: options.context,
    wide: true,
    body: html`<div class="page-title"><h1>Where you are signed in</h1></div>
      ${noticeBox(options.notice)}
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p class="muted">
          Addresses are shown as their network (a /24, or an IPv6 /48). A session also ends by itself when its
          lifetime is over.
        </p>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Network</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </div>
        <form method="post" action="/account/sessions/sign-out-everywhere" class="button-row">
          ${csrfField(options.context.csrfToken)}
          <button type="submit" class="danger">Sign out everywhere</button>
        </form>
      </section>`,
  });
}
