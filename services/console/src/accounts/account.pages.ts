import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { noticeBox, timestamp, type Notice } from '../pages/notice.js';
import { browserNameOf } from '../sessions/session-origin.js';
import { accountEventLabel, type AccountEvent } from './account-events.js';
import { MIN_PASSWORD_LENGTH } from '../auth/password.js';
import { field } from '../pages/form-field.js';

const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters.`;

/** A page of one short message (a link's outcome, a request taken). */
export function messagePage(options: {
  context: PageContext;
  title: string;
  notice?: Notice;
  text: string;
  next: { href: string; label: string };
}): SafeHtml {
  return layout({
    title: options.title,
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">${options.title}</h1>
      ${noticeBox(options.notice)}
      <p>${options.text}</p>
      <p><a href="${options.next.href}">${options.next.label}</a></p>
    </section>`,
  });
}

export function forgotPasswordPage(options: {
  context: PageContext;
  email?: string;
  error?: string;
  notice?: Notice;
}): SafeHtml {
  return layout({
    title: 'Forgot your password',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Forgot your password?</h1>
      <p class="muted">Enter your account's e-mail address. We mail you a link to choose a new password.</p>
      ${noticeBox(options.notice)}
      <form method="post" action="/forgot-password" novalidate>
        ${csrfField(options.context.csrfToken)}
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: options.email, error: options.error })}
        <button type="submit" class="primary block">Mail me a link</button>
      </form>
      <p class="switch"><a href="/sign-in">Back to sign in</a></p>
    </section>`,
  });
}

/** The answer to every accepted reset request, whether or not the address has an account. */
export function resetRequestedPage(options: { context: PageContext }): SafeHtml {
  return messagePage({
    context: options.context,
    title: 'Check your mail',
    notice: { kind: 'success', text: 'If an account has this address, we have mailed it a link.' },
    text: 'The link works once, for 30 minutes. No mail after a few minutes? Check the spam folder, or ask again.',
    next: { href: '/sign-in', label: 'Back to sign in' },
  });
}

export function resetPasswordPage(options: {
  context: PageContext;
  token: string;
  email: string;
  error?: string;
}): SafeHtml {
  return layout({
    title: 'Choose a new password',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Choose a new password</h1>
      <p class="muted">
        For <strong>${options.email}</strong>. Every browser signed in to the account will be signed out.
      </p>
      <form method="post" action="/reset-password" novalidate>
        ${csrfField(options.context.csrfToken)}
        <input type="hidden" name="token" value="${options.token}" />
        <input type="text" name="username" autocomplete="username" value="${options.email}" hidden />
        ${field({ id: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT, error: options.error })}
        <button type="submit" class="primary block">Set the new password</button>
      </form>
    </section>`,
  });
}

/** A link that is malformed, altered, expired, used or superseded: one answer for all. */
export function invalidLinkPage(options: {
  context: PageContext;
  again: { href: string; label: string };
}): SafeHtml {
  return messagePage({
    context: options.context,
    title: 'This link does not work',
    notice: { kind: 'error', text: 'The link is expired, already used, or replaced by a newer one.' },
    text: 'Links work once, and only the latest one mailed works. Ask for a new one.',
    next: options.again,
  });
}

/** What a verification link opens: a button, so a mail scanner fetching the link verifies nothing. */
export function confirmEmailPage(options: { context: PageContext; token: string; email: string }): SafeHtml {
  return layout({
    title: 'Confirm your e-mail address',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Confirm your e-mail address</h1>
      <p>Confirm that <strong>${options.email}</strong> is your address.</p>
      <form method="post" action="/verify-email">
        ${csrfField(options.context.csrfToken)}
        <input type="hidden" name="token" value="${options.token}" />
        <button type="submit" class="primary block">Confirm</button>
      </form>
    </section>`,
  });
}

/** The account page: the address and its state, and the password change form. */
export function accountPage(options: {
  context: PageContext;
  email: string;
  emailVerified: boolean;
  notice?: Notice;
  errors?: { currentPassword?: string; newPassword?: string };
}): SafeHtml {
  return layout({
    title: 'Account',
    context: options.context,
    body: html`<div class="page-title"><h1>Account</h1></div>
      ${noticeBox(options.notice)}
      <section class="card" aria-labelledby="address-title">
        <h2 id="address-title">E-mail address</h2>
        <p>
          <strong>${options.email}</strong> ${
            options.emailVerified
              ? html`<span class="badge active" data-testid="email-state">Verified</span>`
              : html`<span class="badge warn" data-testid="email-state">Not verified</span>`
          }
        </p>
        <p>
          <a href="/account/sessions">Where you are signed in</a> · <a href="/account/activity">Activity</a> ·
          <a href="/account/two-factor">Two-factor sign-in</a> ·
          <a href="/account/delete">Delete the account</a>
        </p>
      </section>
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">Change your password</h2>
        <p class="muted">Every other browser signed in to the account is signed out; this one stays.</p>
        <form method="post" action="/account/password" novalidate>
          ${csrfField(options.context.csrfToken)}
          <input type="text" name="username" autocomplete="username" value="${options.email}" hidden />
          ${field({ id: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', error: options.errors?.currentPassword })}
          ${field({ id: 'newPassword', label: 'New password', type: 'password', autocomplete: 'new-password', hint: NEW_PASSWORD_HINT, error: options.errors?.newPassword })}
          <button type="submit" class="primary">Change password</button>
        </form>
      </section>`,
  });
}

/** "Activity": the account's events, newest first, a page at a time. */
export function activityPage(options: {
  context: PageContext;
  events: readonly AccountEvent[];
  page: number;
  hasOlder: boolean;
}): SafeHtml {
  const rows = options.events.map(
    (event) =>
      html`<tr data-testid="account-event" data-kind="${event.kind}">
        <td>${timestamp(event.createdAt)}</td>
        <th scope="row">
          ${accountEventLabel(event.kind)}${event.detail === null ? '' : html` <code>${event.detail}</code>`}
        </th>
        <td>${event.userAgent === null ? '' : browserNameOf(event.userAgent)}</td>
        <td>${event.addressRange ?? ''}</td>
      </tr>`,
  );
  const newer =
    options.page > 1 ? html`<a href="/account/activity?page=${options.page - 1}" rel="prev">Newer</a>` : '';
  const older = options.hasOlder
    ? html`<a href="/account/activity?page=${options.page + 1}" rel="next">Older</a>`
    : '';
  return layout({
    title: 'Activity',
    context: options.context,
    wide: true,
    body: html`<div class="page-title"><h1>Activity</h1></div>
      <section class="card" aria-labelledby="activity-title">
        <h2 id="activity-title">What happened on your account</h2>
        <p class="muted">
          Newest first. Addresses are shown as their network (a /24, or an IPv6 /48); passwords, codes and
          keys are never recorded.
        </p>
        ${
          rows.length === 0
            ? html`<p>Nothing recorded yet.</p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">What</th>
                      <th scope="col">Browser</th>
                      <th scope="col">Network</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows}
                  </tbody>
                </table>
              </div>`
        }
        <p class="button-row">${newer} ${older}</p>
      </section>`,
  });
}
