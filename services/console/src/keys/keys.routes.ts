import { recordRequestEvent } from '../accounts/account-events.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import type { KeyVouches } from '@directory/keys';
import {
  assertNever,
  isApiKeyMode,
  isKeyExpiryChoice,
  isKeyGraceChoice,
  keyStateAt,
  type ApiKeyMode,
  type KeyGraceChoice,
} from '@directory/domain';
import {
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  MAX_KEY_NAME_LENGTH,
  createKeyForAccount,
  findKeyOfAccount,
  listKeysOfAccount,
  revokeKeyOfAccount,
  rollKeyOfAccount,
  type RollKeyResult,
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
import { redirectSignedOutToSignIn, sessionOf } from '../sessions/signed-in.js';
import { formFields, pageContext, sendNotAccepted, sendPage } from '../pages/render.js';

export type KeysRoutesOptions = {
  db: Database;
  /** Barred before a key's row is written, so a revoke is effective on the API's next request. */
  vouches: KeyVouches;
  csrf: CsrfControl;
  keyPolicy: KeyPolicy;
};

type KeyParams = { Params: { keyId: string } };

const UNVERIFIED_MESSAGE =
  'Confirm your e-mail address first: follow the link we mailed you (or have it mailed again). Test keys work without it.';
type KeyRequest = FastifyRequest<KeyParams>;

/** What the keys page shows besides the list: the outcome of a form, and the secret made just now. */
type KeysPageExtras = {
  status?: number;
  notice?: Notice;
  created?: { name: string; secret: string; mode: ApiKeyMode };
  nameValue?: string;
  /** The mode chosen in a refused form, so it is offered again as chosen (not silently as live). */
  modeValue?: ApiKeyMode;
};

/** The key pages; every route needs a signed-in session (else: to the sign-in page). */
export function keysRoutes(app: FastifyInstance, options: KeysRoutesOptions, done: () => void): void {
  app.addHook('onRequest', redirectSignedOutToSignIn);
  app.get('/keys', async (request, reply) => sendKeysPage(options, request, reply));
  app.post('/keys', async (request, reply) => createKey(options, request, reply));
  app.get<KeyParams>('/keys/:keyId', async (request, reply) => showKeyUsage(options, request, reply));
  app.get<KeyParams>('/keys/:keyId/roll', async (request, reply) => confirmRoll(options, request, reply));
  app.post<KeyParams>('/keys/:keyId/roll', async (request, reply) => rollKey(options, request, reply));
  app.get<KeyParams>('/keys/:keyId/revoke', async (request, reply) => confirmRevoke(options, request, reply));
  app.post<KeyParams>('/keys/:keyId/revoke', async (request, reply) => revokeKey(options, request, reply));
  done();
}

/** The keys page: the account's keys with their usage, and what `extras` adds. */
async function sendKeysPage(
  { db, csrf, keyPolicy }: KeysRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: KeysPageExtras = {},
): Promise<FastifyReply> {
  const now = new Date();
  const keys = await listKeysOfAccount(db, sessionOf(request).accountId, now);
  // Pages answering a POST tell the browser to show /keys, so a reload never re-posts the form.
  const context = pageContext(request, reply, csrf, request.method === 'POST' ? { replaceUrl: '/keys' } : {});
  const page = keysPage({
    context,
    keys,
    maxActiveKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT,
    policy: keyPolicy,
    now,
    ...extras,
  });
  return sendPage(reply, page, extras.status ?? 200);
}

function sendKeyNotFound(csrf: CsrfControl, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const page = errorPage({
    title: 'Key not found',
    message: 'There is no such key in your account.',
    context: pageContext(request, reply, csrf),
  });
  return sendPage(reply, page, 404);
}

async function createKey(
  options: KeysRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const fields = formFields(request.body, ['name', 'expiry', 'mode']);
  const { name, expiry } = fields;
  // A form without the field (a page served before expiry was offered) creates a key that never expires.
  if (expiry !== '' && !isKeyExpiryChoice(expiry)) return sendNotAccepted(options.csrf, request, reply);
  // Likewise a form from before modes were offered creates a live key; any other value is refused.
  const mode = fields.mode === '' ? 'live' : fields.mode;
  if (!isApiKeyMode(mode)) return sendNotAccepted(options.csrf, request, reply);
  // A live key reads the live directory: only once the holder proved the address is theirs. Test keys
  // (sample data only) need no proof.
  if (mode === 'live' && !sessionOf(request).emailVerified)
    return sendKeysPage(options, request, reply, {
      status: 403,
      nameValue: name,
      modeValue: mode,
      notice: { tone: 'error', message: UNVERIFIED_MESSAGE },
    });
  const result = await createKeyForAccount(
    options.db,
    sessionOf(request).accountId,
    name,
    expiry === '' ? 'never' : expiry,
    mode,
  );
  switch (result.kind) {
    case 'created':
      request.log.info({ keyId: result.key.id, mode: result.key.mode }, 'key created');
      await recordRequestEvent(
        options.db,
        request,
        sessionOf(request).accountId,
        'key-created',
        result.key.id,
      );
      // The secret goes into this response only: it is not stored, flashed or logged anywhere.
      return sendKeysPage(options, request, reply, {
        created: { name: result.key.name, secret: result.secret, mode: result.key.mode },
        notice: { tone: 'success', message: `Key “${result.key.name}” created.` },
      });
    case 'limitReached':
      return sendKeysPage(options, request, reply, {
        status: 409,
        nameValue: name,
        modeValue: mode,
        notice: {
          tone: 'error',
          message: `You already have ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys, which is the limit. Revoke one first, then create the new key.`,
        },
      });
    case 'invalidName':
      return sendKeysPage(options, request, reply, {
        status: 400,
        nameValue: name,
        modeValue: mode,
        notice: {
          tone: 'error',
          message: `Give the key a name of 1 to ${MAX_KEY_NAME_LENGTH} characters.`,
        },
      });
    default:
      return assertNever(result);
  }
}

async function showKeyUsage(
  { db, csrf, keyPolicy }: KeysRoutesOptions,
  request: KeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const now = new Date();
  const keys = await listKeysOfAccount(db, sessionOf(request).accountId, now);
  const entry = keys.find(({ key }) => key.id === request.params.keyId);
  if (entry === undefined) return sendKeyNotFound(csrf, request, reply);
  const context = pageContext(request, reply, csrf);
  return sendPage(reply, keyUsagePage({ context, entry, policy: keyPolicy, now }));
}

async function confirmRoll(
  { db, csrf }: KeysRoutesOptions,
  request: KeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = await findKeyOfAccount(db, sessionOf(request).accountId, request.params.keyId);
  if (key === null || keyStateAt(key, new Date()) !== 'active') return reply.redirect('/keys', 303);
  return sendPage(reply, rollConfirmPage({ context: pageContext(request, reply, csrf), key }));
}

async function rollKey(
  options: KeysRoutesOptions,
  request: KeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { grace } = formFields(request.body, ['grace']);
  if (!isKeyGraceChoice(grace)) return sendNotAccepted(options.csrf, request, reply);
  const result = await rollKeyOfAccount(
    options.db,
    options.vouches,
    sessionOf(request).accountId,
    request.params.keyId,
    grace,
  );
  switch (result.kind) {
    case 'rolled':
      request.log.info({ keyId: result.previous.id, successorId: result.key.id, grace }, 'key rolled');
      await recordRequestEvent(
        options.db,
        request,
        sessionOf(request).accountId,
        'key-rolled',
        result.previous.id,
      );
      return sendKeysPage(options, request, reply, {
        created: { name: result.key.name, secret: result.secret, mode: result.key.mode },
        notice: { tone: 'success', message: rolledMessage(result, grace) },
      });
    case 'limitReached':
      return sendKeysPage(options, request, reply, {
        status: 409,
        notice: {
          tone: 'error',
          message: `With a grace period both secrets count toward your ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys, and none is free. Roll without a grace period, or revoke a key first.`,
        },
      });
    case 'notRollable':
      return sendKeysPage(options, request, reply, {
        status: 409,
        notice: { tone: 'error', message: 'Only an active key can be rolled.' },
      });
    case 'notFound':
      return sendKeyNotFound(options.csrf, request, reply);
    default:
      return assertNever(result);
  }
}

/** Tells whether the previous secret still works, and until when (UTC, to the minute). */
function rolledMessage(rolled: Extract<RollKeyResult, { kind: 'rolled' }>, grace: KeyGraceChoice): string {
  return grace === 'none'
    ? `Key “${rolled.key.name}” rolled. The previous secret no longer works.`
    : `Key “${rolled.key.name}” rolled. The previous secret keeps working until ${rolled.previous.revokedAt?.toISOString().slice(0, 16).replace('T', ' ') ?? ''} UTC.`;
}

async function confirmRevoke(
  { db, csrf }: KeysRoutesOptions,
  request: KeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = await findKeyOfAccount(db, sessionOf(request).accountId, request.params.keyId);
  if (key === null || keyStateAt(key, new Date()) === 'revoked') return reply.redirect('/keys', 303);
  return sendPage(reply, revokeConfirmPage({ context: pageContext(request, reply, csrf), key }));
}

async function revokeKey(
  options: KeysRoutesOptions,
  request: KeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const result = await revokeKeyOfAccount(
    options.db,
    options.vouches,
    sessionOf(request).accountId,
    request.params.keyId,
  );
  switch (result.kind) {
    case 'revoked':
      request.log.info({ keyId: result.key.id }, 'key revoked');
      await recordRequestEvent(
        options.db,
        request,
        sessionOf(request).accountId,
        'key-revoked',
        result.key.id,
      );
      return sendKeysPage(options, request, reply, {
        notice: {
          tone: 'success',
          message: `Key “${result.key.name}” revoked. Requests with it are refused from now on.`,
        },
      });
    case 'notFound':
      return sendKeyNotFound(options.csrf, request, reply);
    default:
      return assertNever(result);
  }
}
