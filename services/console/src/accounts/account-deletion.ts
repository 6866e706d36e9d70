import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { eraseAccount, type KeyVouches } from '@directory/keys';
import type { AccountMail } from './account-mail.js';
import type { AccountThrottles } from './account-throttles.js';
import { hasTwoFactor, reauthenticate } from './two-factor.service.js';
import { messagePage } from './account.pages.js';
import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { noticeBox, type Notice } from '../pages/notice.js';
import { refusedReauthentication } from './reauthentication-answer.js';
import { field } from '../pages/form-field.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import type { SessionControl } from '../plugins/session.plugin.js';
import { formFields, pageContext, sendPage } from '../pages/render.js';
import { redirectSignedOutToSignIn, sessionOf } from '../sessions/signed-in.js';

export type AccountDeletionOptions = {
  db: Database;
  sessions: SessionControl;
  csrf: CsrfControl;
  throttles: AccountThrottles;
  mail: AccountMail;
  /** Bars every key before and after the revocation (packages/keys, key-vouches.ts). */
  vouches: KeyVouches;
  secret: string;
};

const signedIn = { onRequest: redirectSignedOutToSignIn };

/** "Delete the account": the password (and a code with two-factor sign-in) again, then the erasure. */
export function accountDeletionRoutes(
  app: FastifyInstance,
  options: AccountDeletionOptions,
  done: () => void,
): void {
  app.get('/account/delete', signedIn, async (request, reply) => sendDeletePage(options, request, reply));
  app.post('/account/delete', signedIn, async (request, reply) => handleDelete(options, request, reply));
  done();
}

function deleteAccountPage(options: {
  context: PageContext;
  email: string;
  askCode: boolean;
  notice?: Notice;
  errors?: { password?: string; code?: string };
}): SafeHtml {
  return layout({
    title: 'Delete the account',
    context: options.context,
    body: html`<div class="page-title"><h1>Delete the account</h1></div>
      ${noticeBox(options.notice)}
      <section class="card" aria-labelledby="delete-title">
        <h2 id="delete-title">This cannot be undone</h2>
        <p>
          Every API key of <strong>${options.email}</strong> stops working at once, every webhook endpoint is
          removed, and the address, password and sessions are erased. We keep only anonymous request counts,
          and mail this address a confirmation.
        </p>
        <form method="post" action="/account/delete" novalidate>
          ${csrfField(options.context.csrfToken)}
          <input type="text" name="username" autocomplete="username" value="${options.email}" hidden />
          ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: options.errors?.password })}
          ${options.askCode ? field({ id: 'code', label: 'Two-factor code', type: 'text', autocomplete: 'one-time-code', hint: 'From your authenticator app, or a recovery code.', error: options.errors?.code }) : ''}
          <button type="submit" class="danger">Delete my account</button>
        </form>
      </section>`,
  });
}

async function sendDeletePage(
  options: AccountDeletionOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: { status?: number; notice?: Notice; errors?: { password?: string; code?: string } } = {},
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const askCode = await hasTwoFactor(options.db, session.accountId);
  const context = pageContext(request, reply, options.csrf);
  return sendPage(
    reply,
    deleteAccountPage({
      context,
      email: session.email,
      askCode,
      notice: extras.notice,
      errors: extras.errors,
    }),
    extras.status ?? 200,
  );
}

async function handleDelete(
  options: AccountDeletionOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const session = sessionOf(request);
  const form = formFields(request.body, ['password', 'code']);
  const result = await reauthenticate(options, { accountId: session.accountId, ...form });
  if (result.kind !== 'confirmed') {
    return sendDeletePage(
      options,
      request,
      reply,
      refusedReauthentication(request, reply, 'account deletion', result),
    );
  }
  const erased = await eraseAccount(options.db, options.vouches, session.accountId);
  await options.sessions.end(request, reply);
  if (erased !== null) {
    request.log.info({ accountId: erased.accountId, keys: erased.keys }, 'account deleted');
    const { email, keys, webhooks } = erased;
    options.mail.later('account deleted mail', () =>
      options.mail.sendAccountDeleted(email, { keys, webhooks }),
    );
  }
  return sendPage(
    reply,
    messagePage({
      context: pageContext(request, reply, options.csrf),
      title: 'Account deleted',
      notice: { kind: 'success', text: 'Your account is deleted.' },
      text: 'Its keys no longer work and its personal data is erased. We mailed you a confirmation.',
      next: { href: '/sign-up', label: 'Create a new account' },
    }),
  );
}
