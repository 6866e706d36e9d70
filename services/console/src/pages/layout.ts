import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from '../plugins/csrf.plugin.js';

export const PRODUCT_NAME = 'Doctor Directory';

export type PageContext = {
  /** The CSRF token for this page's forms. */
  csrfToken: string;
  /** The signed-in account's email, or null. */
  signedInAs: string | null;
  /** Signed in with an address not verified yet: every page says so, with a button to mail the link again. */
  emailUnverified?: boolean;
  /** After a POST: the URL the page should show, so a reload does a GET instead of re-posting. */
  replaceUrl?: string;
};

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;
}

export function layout(options: {
  title: string;
  context: PageContext;
  body: SafeHtml;
  wide?: boolean;
}): SafeHtml {
  const { context } = options;
  const account =
    context.signedInAs === null
      ? html`<nav aria-label="Account">
          <a href="/sign-in">Sign in</a> <a class="button secondary" href="/sign-up">Sign up</a>
        </nav>`
      : html`<nav aria-label="Account">
          <span class="muted" data-testid="signed-in-as">${context.signedInAs}</span>
          <form method="post" action="/sign-out" class="inline">
            ${csrfField(context.csrfToken)}<button type="submit" class="secondary">Sign out</button>
          </form>
        </nav>`;
  const sections =
    context.signedInAs === null
      ? ''
      : html`<nav aria-label="Console">
          <a href="/keys">API keys</a> <a href="/webhooks">Webhooks</a> <a href="/account">Account</a>
        </nav>`;
  const verifyBanner =
    context.signedInAs !== null && context.emailUnverified === true
      ? html`<div class="alert warning-banner" role="status" data-testid="verify-banner">
          Confirm your e-mail address to create live keys and webhooks: follow the link we mailed to
          <strong>${context.signedInAs}</strong>.
          <form method="post" action="/verify-email/resend" class="inline">
            ${csrfField(context.csrfToken)}<button type="submit" class="secondary small-button">
              Mail the link again
            </button>
          </form>
        </div>`
      : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · ${PRODUCT_NAME} Console</title>
<link rel="stylesheet" href="/assets/console.css">
<script src="/assets/console.js" defer></script>
</head>
<body${context.replaceUrl === undefined ? '' : html` data-replace-url="${context.replaceUrl}"`}>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <a class="brand" href="/"><span class="logo" aria-hidden="true">+</span> ${PRODUCT_NAME} <span class="brand-sub">Console</span></a>
  ${sections}
  ${account}
</header>
<main id="main" class="${options.wide ? 'container wide' : 'container'}">
${verifyBanner}
${options.body}
</main>
<footer class="site-footer">API keys authenticate requests to <code>/api/v1</code>. Keep them in server-side secret storage.</footer>
</body>
</html>`;
}

export function errorPage(options: { title: string; message: string; context: PageContext }): SafeHtml {
  return layout({
    title: options.title,
    context: options.context,
    body: html`<section class="card narrow">
      <h1>${options.title}</h1>
      <p>${options.message}</p>
      <p><a href="/">Back to the console</a></p>
    </section>`,
  });
}
