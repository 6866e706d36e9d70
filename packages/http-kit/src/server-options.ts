import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { installHttpMetrics, type HttpMetrics } from '@directory/observability';
import { sendProblem } from './error-handler.js';
import { loggerOptions, requestIdOptions, type LoggerOptions } from './logging.js';
import { genericProblem } from './problem.js';

export type LogOptions = {
  /** pino level, or false for no logs. */
  logLevel?: string | false;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: { write: (line: string) => void };
  /** Request counter and duration histogram of the process (served on its operator listener). */
  httpMetrics?: HttpMetrics;
};

/**
 * Fastify options shared by the API and the MCP server: redacting logger, server-chosen request ids,
 * one access-log line per request (installRequestLogging) and problem bodies for router errors.
 */
export function baseServerOptions(options: LogOptions): FastifyServerOptions {
  return {
    logger: buildLogger(options),
    ...requestIdOptions,
    // One access-log line per request (installRequestLogging) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Router errors (an undecodable URL) bypass the error handler: answer them with a problem too.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'request rejected by the router');
      void sendProblem(reply, genericProblem(error.statusCode ?? 400));
    },
  };
}

/**
 * The Fastify `logger` option for a level and stream; `policy` chooses what is redacted and how requests
 * look (the console passes its own, stricter one).
 */
export function buildLogger(
  options: LogOptions,
  policy: (level: string) => LoggerOptions = loggerOptions,
): FastifyServerOptions['logger'] {
  const level = options.logLevel ?? 'info';
  if (level === false) return false;
  return { ...policy(level), ...(options.logStream ? { stream: options.logStream } : {}) };
}

/**
 * Echoes the request id in X-Request-Id and logs one sanitized line per completed request; with
 * `httpMetrics`, also counts and times each one.
 */
export function installRequestLogging(app: FastifyInstance, httpMetrics?: HttpMetrics): void {
  if (httpMetrics) installHttpMetrics(app, httpMetrics);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });
}
