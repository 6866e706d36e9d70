import { recordRequestEvent } from '../accounts/account-events.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertNever } from '@directory/domain';
import type { WebhookDeps } from '@directory/webhooks';
import { errorPage } from '../pages/layout.js';
import type { CsrfControl } from '../plugins/csrf.plugin.js';
import { redirectSignedOutToSignIn, sessionOf } from '../sessions/signed-in.js';
import { formFields, pageContext, sendNotAccepted, sendPage } from '../pages/render.js';
import type { WebhookBudgets } from './webhook-budgets.js';
import { endpointFormOf, formValues, type EndpointForm } from './webhooks.form.js';
import { deleteConfirmPage, endpointPage, webhooksPage, type Notice } from './webhooks.pages.js';
import {
  DELIVERY_LOG_SIZE,
  WEBHOOK_ENDPOINTS_PER_ACCOUNT,
  createEndpointForAccount,
  deleteEndpointOfAccount,
  findEndpointOfAccount,
  listDeliveriesOfEndpoint,
  listEndpointsOfAccount,
  sendTestEventToEndpoint,
  setEndpointEnabledOfAccount,
} from './webhooks.service.js';

export type WebhooksRoutesOptions = {
  /** The database and the URL rules: what the webhooks package works with. */
  webhooks: WebhookDeps;
  /** What the account may do per window: test events, endpoint changes. */
  budgets: WebhookBudgets;
  csrf: CsrfControl;
};

type EndpointParams = { Params: { endpointId: string } };
type EndpointRequest = FastifyRequest<EndpointParams>;

/** What the list page shows besides the endpoints: the outcome of a form, and the secret made just now. */
type WebhooksPageExtras = {
  status?: number;
  notice?: Notice;
  created?: { url: string; secret: string };
  form?: EndpointForm;
};

/** The webhook pages; every route needs a signed-in session (else: to the sign-in page). */
export function webhooksRoutes(app: FastifyInstance, options: WebhooksRoutesOptions, done: () => void): void {
  app.addHook('onRequest', redirectSignedOutToSignIn);
  app.get('/webhooks', async (request, reply) => sendWebhooksPage(options, request, reply));
  app.post('/webhooks', async (request, reply) => createEndpoint(options, request, reply));
  app.get<EndpointParams>('/webhooks/:endpointId', async (request, reply) =>
    sendEndpointPage(options, request, reply),
  );
  app.post<EndpointParams>('/webhooks/:endpointId/enable', async (request, reply) =>
    setEnabled(options, request, reply, true),
  );
  app.post<EndpointParams>('/webhooks/:endpointId/disable', async (request, reply) =>
    setEnabled(options, request, reply, false),
  );
  app.post<EndpointParams>('/webhooks/:endpointId/test', async (request, reply) =>
    sendTestEvent(options, request, reply),
  );
  app.get<EndpointParams>('/webhooks/:endpointId/delete', async (request, reply) =>
    confirmDelete(options, request, reply),
  );
  app.post<EndpointParams>('/webhooks/:endpointId/delete', async (request, reply) =>
    deleteEndpoint(options, request, reply),
  );
  done();
}

/** The list page: the account's endpoints and the create form, with what `extras` adds. */
async function sendWebhooksPage(
  { webhooks, csrf }: WebhooksRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  extras: WebhooksPageExtras = {},
): Promise<FastifyReply> {
  const endpoints = await listEndpointsOfAccount(webhooks.db, sessionOf(request).accountId);
  // Pages answering a POST tell the browser to show /webhooks, so a reload never re-posts the form.
  const context = pageContext(
    request,
    reply,
    csrf,
    request.method === 'POST' ? { replaceUrl: '/webhooks' } : {},
  );
  const page = webhooksPage({
    context,
    endpoints,
    maxEndpoints: WEBHOOK_ENDPOINTS_PER_ACCOUNT,
    notice: extras.notice,
    created: extras.created,
    urlValue: extras.form?.url,
    countriesValue: extras.form?.countries,
  });
  return sendPage(reply, page, extras.status ?? 200);
}

/** The endpoint page with its delivery log, or the 404 page when the account has no such endpoint. */
async function sendEndpointPage(
  { webhooks, csrf }: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
  notice?: Notice,
  status = 200,
): Promise<FastifyReply> {
  const accountId = sessionOf(request).accountId;
  const endpoint = await findEndpointOfAccount(webhooks.db, accountId, request.params.endpointId);
  if (endpoint === null) return sendEndpointNotFound(csrf, request, reply);
  const deliveries = await listDeliveriesOfEndpoint(webhooks.db, accountId, endpoint.id);
  const replaceUrl = `/webhooks/${endpoint.id}`;
  const context = pageContext(request, reply, csrf, request.method === 'POST' ? { replaceUrl } : {});
  const page = endpointPage({
    context,
    endpoint,
    deliveries,
    deliveryLimit: DELIVERY_LOG_SIZE,
    notice,
  });
  return sendPage(reply, page, status);
}

function sendEndpointNotFound(csrf: CsrfControl, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const page = errorPage({
    title: 'Endpoint not found',
    message: 'There is no such webhook endpoint in your account.',
    context: pageContext(request, reply, csrf),
  });
  return sendPage(reply, page, 404);
}

async function createEndpoint(
  options: WebhooksRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const form = endpointFormOf(formFields(request.body, ['url']).url, formValues(request.body, 'countries'));
  if (form === null) return sendNotAccepted(options.csrf, request, reply);
  // Endpoints receive live data: only once the holder proved the address is theirs.
  if (!sessionOf(request).emailVerified)
    return sendWebhooksPage(options, request, reply, {
      status: 403,
      form,
      notice: {
        tone: 'error',
        message:
          'Confirm your e-mail address first: follow the link we mailed you (or have it mailed again).',
      },
    });
  const accountId = sessionOf(request).accountId;
  const budget = await options.budgets.endpointChange(accountId);
  if (!budget.allowed) {
    reply.header('retry-after', String(budget.retryAfterSeconds));
    return sendWebhooksPage(options, request, reply, {
      status: 429,
      form,
      notice: { tone: 'error', message: overBudget('endpoint changes', budget.retryAfterSeconds) },
    });
  }
  const result = await createEndpointForAccount(options.webhooks, accountId, form);
  switch (result.kind) {
    case 'created':
      // Never the secret: it goes into this response only, and is not stored in clear, flashed or logged.
      request.log.info({ endpointId: result.endpoint.id }, 'webhook endpoint created');
      await recordRequestEvent(
        options.webhooks.db,
        request,
        accountId,
        'webhook-created',
        result.endpoint.id,
      );
      return sendWebhooksPage(options, request, reply, {
        created: { url: result.endpoint.url, secret: result.secret },
        notice: { tone: 'success', message: `Endpoint ${result.endpoint.url} added.` },
      });
    case 'refused':
      return sendWebhooksPage(options, request, reply, {
        status: result.limitReached ? 409 : 400,
        form,
        notice: { tone: 'error', message: `The endpoint was not added: ${result.reason}.` },
      });
    default:
      return assertNever(result);
  }
}

async function setEnabled(
  options: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
  enabled: boolean,
): Promise<FastifyReply> {
  const accountId = sessionOf(request).accountId;
  const budget = await options.budgets.endpointChange(accountId);
  if (!budget.allowed)
    return sendOverBudget(options, request, reply, 'endpoint changes', budget.retryAfterSeconds);
  const endpoint = await setEndpointEnabledOfAccount(
    options.webhooks.db,
    accountId,
    request.params.endpointId,
    enabled,
  );
  if (endpoint === null) return sendEndpointNotFound(options.csrf, request, reply);
  request.log.info({ endpointId: endpoint.id, enabled }, 'webhook endpoint switched');
  const message = enabled
    ? 'Endpoint enabled: it receives events again.'
    : 'Endpoint disabled: it receives no events until you enable it.';
  return sendEndpointPage(options, request, reply, { tone: 'success', message });
}

async function sendTestEvent(
  options: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const result = await sendTestEventToEndpoint(
    options.webhooks,
    sessionOf(request).accountId,
    request.params.endpointId,
    options.budgets.testEvent,
  );
  switch (result.kind) {
    case 'queued':
      request.log.info(
        { endpointId: result.delivery.endpointId, deliveryId: result.delivery.id },
        'webhook test event made',
      );
      return sendEndpointPage(options, request, reply, {
        tone: 'success',
        message: 'Test event made. Its delivery is in the log below; reload the page to follow it.',
      });
    case 'disabled':
      return sendEndpointPage(
        options,
        request,
        reply,
        { tone: 'error', message: 'This endpoint is disabled: enable it to send a test event.' },
        409,
      );
    case 'overBudget':
      return sendOverBudget(options, request, reply, 'test events', result.retryAfterSeconds);
    case 'notReceiving':
      return sendEndpointPage(options, request, reply, { tone: 'error', message: `${result.reason}.` }, 409);
    case 'notFound':
      return sendEndpointNotFound(options.csrf, request, reply);
    default:
      return assertNever(result);
  }
}

function overBudget(what: string, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Your account has used its ${what} for now: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The endpoint's page with a 429 and Retry-After: the account spent its budget for `what`. */
function sendOverBudget(
  options: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
  what: string,
  retryAfterSeconds: number,
): Promise<FastifyReply> {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendEndpointPage(
    options,
    request,
    reply,
    { tone: 'error', message: overBudget(what, retryAfterSeconds) },
    429,
  );
}

async function confirmDelete(
  { webhooks, csrf }: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const endpoint = await findEndpointOfAccount(
    webhooks.db,
    sessionOf(request).accountId,
    request.params.endpointId,
  );
  if (endpoint === null) return sendEndpointNotFound(csrf, request, reply);
  return sendPage(reply, deleteConfirmPage({ context: pageContext(request, reply, csrf), endpoint }));
}

async function deleteEndpoint(
  options: WebhooksRoutesOptions,
  request: EndpointRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const accountId = sessionOf(request).accountId;
  const budget = await options.budgets.endpointChange(accountId);
  if (!budget.allowed)
    return sendOverBudget(options, request, reply, 'endpoint changes', budget.retryAfterSeconds);
  const endpoint = await findEndpointOfAccount(options.webhooks.db, accountId, request.params.endpointId);
  if (endpoint === null || !(await deleteEndpointOfAccount(options.webhooks.db, accountId, endpoint.id)))
    return sendEndpointNotFound(options.csrf, request, reply);
  request.log.info({ endpointId: endpoint.id }, 'webhook endpoint deleted');
  await recordRequestEvent(options.webhooks.db, request, accountId, 'webhook-removed', endpoint.id);
  return sendWebhooksPage(options, request, reply, {
    notice: { tone: 'success', message: `Endpoint ${endpoint.url} deleted. It receives no further events.` },
  });
}
