import type { FastifyInstance } from 'fastify';
import type { ReadinessReport } from './readiness.js';

/** Answers "is this process ready?" (the checks and their timeouts are the caller's). */
export type ReadinessSource = () => Promise<ReadinessReport>;

export const NOT_READY_PROBLEM_TYPE = '/problems/not-ready';

/**
 * Kubernetes-style probes: the status code is the answer, `?verbose` adds a line per check for people.
 * `/livez` checks nothing but that the event loop answers (restarting a process never fixes a database);
 * `/readyz` checks every dependency and answers 503 problem+json naming each one that failed; from the
 * stop signal on it fails at once, naming `shutdown (draining)` (markStopping).
 */
export function registerProbes(app: FastifyInstance, readiness: ReadinessSource): void {
  app.get('/livez', async (request, reply) => {
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    return isVerbose(request.query) ? '[+]ping ok\nlivez check passed\n' : 'ok';
  });

  app.get('/readyz', async (request, reply) => {
    const report = await readiness();
    reply.header('cache-control', 'no-store');
    if (!report.ready) {
      return reply.code(503).type('application/problem+json').send(notReadyProblem(report));
    }
    reply.type('text/plain; charset=utf-8');
    return isVerbose(request.query) ? verboseReport(report) : 'ok';
  });
}

export function notReadyProblem(report: ReadinessReport) {
  const failing = report.dependencies.filter((dependency) => !dependency.ready);
  return {
    type: NOT_READY_PROBLEM_TYPE,
    title: 'Not ready',
    status: 503,
    detail: `not ready: ${failing.map((dependency) => `${dependency.name} (${dependency.reason ?? 'failed'})`).join(', ')}`,
    dependencies: report.dependencies.map(({ name, ready, reason }) => ({
      name,
      ready,
      ...(reason === undefined ? {} : { reason }),
    })),
  };
}

/** The Kubernetes verbose format: `[+]name ok` / `[-]name failed: reason`, then a summary line. */
export function verboseReport(report: ReadinessReport): string {
  const lines = report.dependencies.map((dependency) =>
    dependency.ready
      ? `[+]${dependency.name} ok`
      : `[-]${dependency.name} failed: ${dependency.reason ?? ''}`,
  );
  lines.push(report.ready ? 'readyz check passed' : 'readyz check failed');
  return `${lines.join('\n')}\n`;
}

function isVerbose(query: unknown): boolean {
  return typeof query === 'object' && query !== null && 'verbose' in query;
}
