import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { createHttpMetrics, createMetricsRegistry, type HttpMetrics } from './metrics.js';
import { startOperatorListener } from './operator-listener.js';
import {
  checkReadiness,
  DRAINING_REPORT,
  isStopping,
  type DependencyCheck,
  type ReadinessReport,
} from './readiness.js';

export type ProcessOperationsOptions = {
  /** The `service` label on every series (api, mcp, console, worker). */
  service: string;
  host: string;
  /** 0: no operator listener (metrics are still counted, nothing serves them). */
  port: number;
  checks: ReadonlyArray<DependencyCheck>;
  readinessTimeoutMs: number;
  dashboard?: { queues: ReadonlyArray<Queue>; token: string };
};

export type ProcessOperations = {
  registry: Registry;
  httpMetrics: HttpMetrics;
  readiness: () => Promise<ReadinessReport>;
  /** The operator listener, or null when its port is 0. */
  listener: FastifyInstance | null;
  close: () => Promise<void>;
};

/** What every process mounts: its registry with HTTP metrics, its readiness checks, its operator listener. */
export async function startProcessOperations(options: ProcessOperationsOptions): Promise<ProcessOperations> {
  const registry = createMetricsRegistry(options.service);
  const httpMetrics = createHttpMetrics(registry);
  // A stopping process is not ready whatever its dependencies answer (markStopping).
  const readiness = () =>
    isStopping()
      ? Promise.resolve(DRAINING_REPORT)
      : checkReadiness(options.checks, options.readinessTimeoutMs);
  const listener = await startOperatorListener({
    host: options.host,
    port: options.port,
    registry,
    readiness,
    ...(options.dashboard ? { dashboard: options.dashboard } : {}),
  });
  return {
    registry,
    httpMetrics,
    readiness,
    listener,
    close: async () => {
      await listener?.close();
    },
  };
}
