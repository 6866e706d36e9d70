import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import type { KeyVouches } from '@directory/keys';
import { assertNever, isKeyExpiryChoice, isKeyGraceChoice, keyStateAt } from '@directory/domain';
import {
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  createKeyForAccount,
  findKeyOfAccount,
  listKeysOfAccount,
  revokeKeyOfAccount,
  rollKeyOfAccount,
} from './keys.service.js';
import { errorPage } from '../pages/layout.js';
import {
  keyUsagePage,
  keysPage,
  revokeConfirmPage,
  rollConfirmPage,
  type KeyPolicy,
  type Notice,
} from './keys.pages.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import type { ConsoleSession } from '../sessions/session.repository.js';
import { formFields, pageContext, sendPage } from '../pages/render.js';

export type KeysRoutesOptions = {
  db: Database;
  /** Barred before a key's row is written, so a revoke is effective on the API's next request. */
  vouches: KeyVouches;
  csrf: CsrfControl;
  keyPolicy: KeyPolicy;
};

type KeyParams = { Params: { keyId: string } };

function session(request: FastifyRequest): ConsoleSession {
  if (request.session === null) throw new Error('keys routes run behind the session check');
  return request.session;
}

/** The key pages; every route needs a signed-in session (else: to the sign-in page). */
export function keysRoutes(app: FastifyInstance, options: KeysRoutesOptions, done: () => void): void {
  const { db, vouches, csrf, keyPolicy } = options;

  app.addHook('onRequest', async (request, reply) => {
    if (request.session === null) return reply.redirect('/sign-in', 303);
  });

  async function renderKeys(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: {
      status?: number;
      notice?: Notice;
      created?: { name: string; secret: string };
      nameValue?: string;
    } = {},
  ): Promise<FastifyReply> {
    const now = new Date();
    const keys = await listKeysOfAccount(db, session(request).accountId, now);
    // Pages answering a POST tell the browser to show /keys, so a reload never re-posts the form.
    const context = pageContext(
      request,
      reply,
      csrf,
      request.method === 'POST' ? { replaceUrl: '/keys' } : {},
    );
    const page = keysPage({
      context,
      keys,
      maxActiveKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT,
      policy: keyPolicy,
      now,
      ...extra,
    });
    return sendPage(reply, page, extra.status ?? 200);
  }

  app.get('/keys', async (request, reply) => renderKeys(request, reply));

  app.post('/keys', async (request, reply) => {
    const { name, expiry } = formFields(request.body, ['name', 'expiry']);
    // A form without the field (an older page) creates a key that never expires, as before.
    if (expiry !== '' && !isKeyExpiryChoice(expiry)) return notAccepted(request, reply);
    const result = await createKeyForAccount(
      db,
      session(request).accountId,
      name,
      expiry === '' ? 'never' : expiry,
    );
    switch (result.kind) {
      case 'created':
        request.log.info({ keyId: result.key.id }, 'key created');
        // The secret goes into this response only: it is not stored, flashed or logged anywhere.
        return renderKeys(request, reply, {
          created: { name: result.key.name, secret: result.secret },
          notice: { tone: 'success', message: `Key “${result.key.name}” created.` },
        });
      case 'limitReached':
        return renderKeys(request, reply, {
          status: 409,
          nameValue: name,
          notice: {
            tone: 'error',
            message: `You already have ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys, which is the limit. Revoke one first, then create the new key.`,
          },
        });
      case 'invalidName':
        return renderKeys(request, reply, {
          status: 400,
          nameValue: name,
          notice: {
            tone: 'error',
            message: `Give the key a name of 1 to ${MAX_KEY_NAME_LENGTH} characters.`,
          },
        });
      default:
        return assertNever(result);
    }
  });

  function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const page = errorPage({
      title: 'Key not found',
      message: 'There is no such key in your account.',
      context: pageContext(request, reply, csrf),
    });
    return sendPage(reply, page, 404);
  }

  function notAccepted(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const page = errorPage({
      title: 'Request not accepted',
      message: 'The form held a value this page does not offer. Go back, reload the page and try again.',
      context: pageContext(request, reply, csrf),
    });
    return sendPage(reply, page, 400);
  }

  app.get<KeyParams>('/keys/:keyId', async (request, reply) => {
    const now = new Date();
    const keys = await listKeysOfAccount(db, session(request).accountId, now);
    const entry = keys.find(({ key }) => key.id === request.params.keyId);
    if (entry === undefined) return notFound(request, reply);
    const context = pageContext(request, reply, csrf);
    return sendPage(reply, keyUsagePage({ context, entry, policy: keyPolicy, now }));
  });

  app.get<KeyParams>('/keys/:keyId/roll', async (request, reply) => {
    const key = await findKeyOfAccount(db, session(request).accountId, request.params.keyId);
    if (key === null || keyStateAt(key, new Date()) !== 'active') return reply.redirect('/keys', 303);
    return sendPage(reply, rollConfirmPage({ context: pageContext(request, reply, csrf), key }));
  });

  app.post<KeyParams>('/keys/:keyId/roll', async (request, reply) => {
    const { grace } = formFields(request.body, ['grace']);
    if (!isKeyGraceChoice(grace)) return notAccepted(request, reply);
    const result = await rollKeyOfAccount(
      db,
      vouches,
      session(request).accountId,
      request.params.keyId,
      grace,
    );
    switch (result.kind) {
      case 'rolled':
        request.log.info({ keyId: result.previous.id, successorId: result.key.id, grace }, 'key rolled');
        return renderKeys(request, reply, {
          created: { name: result.key.name, secret: result.secret },
          notice: {
            tone: 'success',
            message:
              grace === 'none'
                ? `Key “${result.key.name}” rolled. The previous secret no longer works.`
                : `Key “${result.key.name}” rolled. The previous secret keeps working until ${result.previous.revokedAt?.toISOString().slice(0, 16).replace('T', ' ') ?? ''} UTC.`,
          },
        });
      case 'limitReached':
        return renderKeys(request, reply, {
          status: 409,
          notice: {
            tone: 'error',
            message: `With a grace period both secrets count toward your ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys, and none is free. Roll without a grace period, or revoke a key first.`,
          },
        });
      case 'notRollable':
        return renderKeys(request, reply, {
          status: 409,
          notice: { tone: 'error', message: 'Only an active key can be rolled.' },
        });
      case 'notFound':
        return notFound(request, reply);
      default:
        return assertNever(result);
    }
  });

  app.get<KeyParams>('/keys/:keyId/revoke', async (request, reply) => {
    const key = await findKeyOfAccount(db, session(request).accountId, request.params.keyId);
    if (key === null || keyStateAt(key, new Date()) === 'revoked') return reply.redirect('/keys', 303);
    return sendPage(reply, revokeConfirmPage({ context: pageContext(request, reply, csrf), key }));
  });

  app.post<KeyParams>('/keys/:keyId/revoke', async (request, reply) => {
    const result = await revokeKeyOfAccount(db, vouches, session(request).accountId, request.params.keyId);
    switch (result.kind) {
      case 'revoked':
        request.log.info({ keyId: result.key.id }, 'key revoked');
        return renderKeys(request, reply, {
          notice: {
            tone: 'success',
            message: `Key “${result.key.name}” revoked. Requests with it are refused from now on.`,
          },
        });
      case 'notFound':
        return notFound(request, reply);
      default:
        return assertNever(result);
    }
  });
  done();
}
