import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SafeHtml } from './html.js';
import { errorPage, type PageContext } from './layout.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';

export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page.value);
}

export function pageContext(
  request: FastifyRequest,
  reply: FastifyReply,
  csrf: CsrfControl,
  extra: Pick<PageContext, 'replaceUrl'> = {},
): PageContext {
  return {
    csrfToken: csrf.tokenFor(request, reply),
    signedInAs: request.session?.email ?? null,
    emailUnverified: request.session !== null && !request.session.emailVerified,
    ...extra,
  };
}

/** The error page of a state-changing form that held a value its page does not offer (400). */
export function sendNotAccepted(
  csrf: CsrfControl,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const page = errorPage({
    title: 'Request not accepted',
    message: 'The form held a value this page does not offer. Go back, reload the page and try again.',
    context: pageContext(request, reply, csrf),
  });
  return sendPage(reply, page, 400);
}

/** Form fields as strings (absent or repeated fields become ''), whatever the client sent. */
export function formFields<Name extends string>(body: unknown, names: readonly Name[]): Record<Name, string> {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const fields = {} as Record<Name, string>;
  for (const name of names) {
    const value = source[name];
    // A NUL cannot be part of any real field (nor be stored in PostgreSQL): such a field is absent.
    fields[name] = typeof value === 'string' && !value.includes('\u0000') ? value : '';
  }
  return fields;
}
