import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A process's own registry (never prom-client's global one), with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

export type HttpMetrics = {
  duration: Histogram<'route' | 'method' | 'status'>;
  requests: Counter<'route' | 'method' | 'status'>;
};

export function createHttpMetrics(registry: Registry): HttpMetrics {
  return {
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request received to response sent, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
  };
}

/**
 * Counts and times every response. The route label is the route's template (`/api/v1/doctors/:id`),
 * never the URL, so ids and query strings cannot multiply the series; requests no route matched share
 * one label.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1_000);
  });
}
