import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { sendProblem } from './error-handler.js';
import { loggerOptions, requestIdOptions } from './logging.js';
import { genericProblem } from './problem.js';

export type LogOptions = {
  /** pino level, or false for no logs. */
  logLevel?: string | false;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: { write: (line: string) => void };
};

/**
 * Fastify options shared by the API and the MCP server: redacting logger, server-chosen request ids,
 * one access-log line per request (installRequestLogging) and problem bodies for router errors.
 */
export function baseServerOptions(options: LogOptions): FastifyServerOptions {
  const level = options.logLevel ?? 'info';
  const logger: FastifyServerOptions['logger'] =
    level === false
      ? false
      : { ...loggerOptions(level), ...(options.logStream ? { stream: options.logStream } : {}) };
  return {
    logger,
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

/** Echoes the request id in X-Request-Id and logs one sanitized line per completed request. */
export function installRequestLogging(app: FastifyInstance): void {
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
