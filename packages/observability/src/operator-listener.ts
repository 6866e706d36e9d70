import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { registerProbes, type ReadinessSource } from './probes.js';

export const DASHBOARD_PATH = '/queues';

export type OperatorListenerOptions = {
  host: string;
  /** 0 disables the listener (the process serves no metrics, probes or dashboard). */
  port: number;
  registry: Registry;
  readiness: ReadinessSource;
  /** The queue dashboard, for processes that own a queue; never mounted without a token. */
  dashboard?: { queues: ReadonlyArray<Queue>; token: string };
};

/**
 * The operator's own port (loopback by default, never the public one): `/metrics` for Prometheus, the
 * probes, and where a queue exists the BullMQ dashboard behind the operator token. Resolves with the
 * listening app, or null when disabled.
 */
export async function startOperatorListener(
  options: OperatorListenerOptions,
): Promise<FastifyInstance | null> {
  if (options.port === 0) return null;
  const app = Fastify({ logger: false });
  registerProbes(app, options.readiness);
  app.get('/metrics', async (_request, reply) => {
    reply.type(options.registry.contentType);
    return options.registry.metrics();
  });
  if (options.dashboard) await registerDashboard(app, options.dashboard);
  await app.listen({ host: options.host, port: options.port });
  return app;
}

async function registerDashboard(
  app: FastifyInstance,
  dashboard: { queues: ReadonlyArray<Queue>; token: string },
): Promise<void> {
  if (dashboard.token.length < 32)
    throw new Error('the queue dashboard needs an OPS_TOKEN of at least 32 characters');
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: dashboard.queues.map((queue) => new BullMQAdapter(queue, { allowRetries: true })),
    serverAdapter,
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (presentsToken(request, dashboard.token)) return;
      // Basic lets a browser prompt for it (any user name, the token as password); scripts send Bearer.
      await reply
        .code(401)
        .header('www-authenticate', 'Basic realm="operations", charset="UTF-8"')
        .type('application/problem+json')
        .send({
          type: '/problems/unauthorized',
          title: 'Missing or invalid operator token',
          status: 401,
          detail: 'Send the operator token (OPS_TOKEN) as a Bearer token or as the Basic password.',
        });
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  });
}

function presentsToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  if (header === undefined) return false;
  const [scheme, value = ''] = header.split(' ', 2);
  let presented: string;
  if (scheme?.toLowerCase() === 'bearer') presented = value;
  else if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    presented = decoded.slice(decoded.indexOf(':') + 1);
  } else return false;
  return sameSecret(presented, token);
}

/** Constant-time comparison of equal-length digests, so neither content nor length leaks through timing. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
