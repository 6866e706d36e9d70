import { recordRequestEvent } from '../accounts/account-events.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import { deleteSessionsOfAccount, listSessions, sessionHandle } from './session.repository.js';
import { sessionsPage } from './sessions.pages.js';
import { redirectSignedOutToSignIn, sessionOf } from './signed-in.js';
import type { Notice } from '../pages/notice.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import type { SessionControl } from '../plugins/session.plugin.js';
import { pageContext, sendPage } from '../pages/render.js';

export type SessionsRoutesOptions = { db: Database; sessions: SessionControl; csrf: CsrfControl };

type HandleParams = { Params: { handle: string } };

/** "Where you are signed in": the account's sessions, sign-out per session and everywhere. */
export function sessionsRoutes(app: FastifyInstance, options: SessionsRoutesOptions, done: () => void): void {
  app.addHook('onRequest', redirectSignedOutToSignIn);
  app.get('/account/sessions', async (request, reply) => sendSessionsPage(options, request, reply));
  app.post<HandleParams>('/account/sessions/:handle/sign-out', async (request, reply) =>
    handleSignOutSession(options, request, reply),
  );
  app.post('/account/sessions/sign-out-everywhere', async (request, reply) => {
    const { accountId } = sessionOf(request);
    await deleteSessionsOfAccount(options.db, accountId);
    await recordRequestEvent(options.db, request, accountId, 'signed-out-everywhere');
    await options.sessions.end(request, reply);
    request.log.info('signed out everywhere');
    return reply.redirect('/sign-in', 303);
  });
  done();
}

async function sendSessionsPage(
  options: SessionsRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: { status?: number; notice?: Notice } = {},
): Promise<FastifyReply> {
  const current = sessionOf(request);
  const sessions = (await listSessions(options.db, current.accountId)).map((session) => ({
    ...session,
    handle: sessionHandle(session.id),
    current: session.id === current.id,
  }));
  const context = pageContext(
    request,
    reply,
    options.csrf,
    request.method === 'POST' ? { replaceUrl: '/account/sessions' } : {},
  );
  return sendPage(reply, sessionsPage({ context, sessions, notice: extras.notice }), extras.status ?? 200);
}

async function handleSignOutSession(
  options: SessionsRoutesOptions,
  request: FastifyRequest<HandleParams>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const current = sessionOf(request);
  const target = (await listSessions(options.db, current.accountId)).find(
    (session) => sessionHandle(session.id) === request.params.handle,
  );
  if (target === undefined)
    return sendSessionsPage(options, request, reply, {
      status: 404,
      notice: { kind: 'error', text: 'That session has already ended.' },
    });
  await recordRequestEvent(options.db, request, current.accountId, 'session-ended');
  if (target.id === current.id) {
    await options.sessions.end(request, reply);
    return reply.redirect('/sign-in', 303);
  }
  await deleteSessionsOfAccount(options.db, current.accountId, { only: target.id });
  request.log.info('session signed out from the sessions page');
  return sendSessionsPage(options, request, reply, {
    notice: { kind: 'success', text: 'That session is signed out.' },
  });
}
