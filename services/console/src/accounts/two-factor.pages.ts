import { html, rawTrusted, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { noticeBox, type Notice } from '../pages/notice.js';
import { field } from '../pages/form-field.js';
import type { Enrolment } from './two-factor.service.js';

const CODE_HINT = 'The six digits your authenticator app shows, or one of your recovery codes.';

/** Sign-in's second step: a code from the app or a recovery code. */
export function twoFactorSignInPage(options: {
  context: PageContext;
  error?: string;
  notice?: Notice;
}): SafeHtml {
  return layout({
    title: 'Two-factor sign-in',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Enter your code</h1>
      ${noticeBox(options.notice)}
      <form method="post" action="/sign-in/two-factor" novalidate>
        ${csrfField(options.context.csrfToken)}
        ${field({ id: 'code', label: 'Code', type: 'text', inputmode: 'text', autocomplete: 'one-time-code', hint: CODE_HINT, error: options.error })}
        <button type="submit" class="primary block">Sign in</button>
      </form>
      <p class="switch"><a href="/sign-in">Start again</a></p>
    </section>`,
  });
}

/** `/account/two-factor`: enrolment (QR code, secret, confirm) or, once on, the way to turn it off. */
export function twoFactorPage(options: {
  context: PageContext;
  email: string;
  enrolment: Enrolment;
  notice?: Notice;
  errors?: { code?: string; password?: string };
}): SafeHtml {
  const { enrolment } = options;
  const body =
    enrolment.kind === 'enrolling'
      ? html`<section class="card" aria-labelledby="enrol-title">
          <h2 id="enrol-title">Turn on two-factor sign-in</h2>
          <p>
            Scan this code with an authenticator app, then enter the six digits it shows. Signing in will then
            ask for a code after your password.
          </p>
          <div class="qr" data-testid="totp-qr">${rawTrusted(enrolment.qrSvg)}</div>
          <p>
            Or type this key into the app:
            <code data-testid="totp-secret">${enrolment.secret}</code>
          </p>
          <form method="post" action="/account/two-factor/enable" novalidate>
            ${csrfField(options.context.csrfToken)}
            ${field({ id: 'code', label: 'Code from the app', type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', error: options.errors?.code })}
            <button type="submit" class="primary">Turn on</button>
          </form>
        </section>`
      : html`<section class="card" aria-labelledby="on-title">
          <h2 id="on-title">Two-factor sign-in is on</h2>
          <p data-testid="recovery-codes-left">
            ${enrolment.recoveryCodesLeft} of your recovery codes are unused.
          </p>
          <h3>Turn it off</h3>
          <form method="post" action="/account/two-factor/disable" novalidate>
            ${csrfField(options.context.csrfToken)}
            <input type="text" name="username" autocomplete="username" value="${options.email}" hidden />
            ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: options.errors?.password })}
            ${field({ id: 'code', label: 'Code', type: 'text', autocomplete: 'one-time-code', hint: CODE_HINT, error: options.errors?.code })}
            <button type="submit" class="danger">Turn off two-factor sign-in</button>
          </form>
        </section>`;
  return layout({
    title: 'Two-factor sign-in',
    context: options.context,
    body: html`<div class="page-title"><h1>Two-factor sign-in</h1></div>
      ${noticeBox(options.notice)} ${body}`,
  });
}

/** The recovery codes, shown once, right after enrolment. */
export function recoveryCodesPage(options: { context: PageContext; codes: readonly string[] }): SafeHtml {
  return layout({
    title: 'Recovery codes',
    context: options.context,
    body: html`<div class="page-title"><h1>Two-factor sign-in is on</h1></div>
      ${noticeBox({ kind: 'success', text: 'Two-factor sign-in is on.' })}
      <section class="card" aria-labelledby="codes-title">
        <h2 id="codes-title">Your recovery codes</h2>
        <p>
          Each works once instead of a code from the app, if you lose it. Keep them somewhere safe:
          <strong>they are shown only now.</strong>
        </p>
        <ul class="recovery-codes" data-testid="recovery-codes">
          ${options.codes.map((code) => html`<li><code>${code}</code></li>`)}
        </ul>
        <p><a href="/account">Back to your account</a></p>
      </section>`,
  });
}
