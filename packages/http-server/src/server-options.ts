import type { Socket } from 'node:net';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { installHttpMetrics, type HttpMetrics } from '@directory/observability';
import { PROBLEM_CONTENT_TYPE, sendProblem } from './error-handler.js';
import { loggerOptions, requestIdOptions, type LoggerOptions } from './logging.js';
import { genericProblem } from './problem.js';
import { installRequestTracing } from './request-spans.js';

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
 * one access-log line per request (installRequestLogging), problem bodies for router errors, and the
 * client's address taken from X-Forwarded-For only when the connection comes from a trusted proxy.
 */
export function baseServerOptions(
  options: LogOptions,
  trustedProxies: readonly string[] = [],
): FastifyServerOptions {
  return {
    logger: buildLogger(options),
    trustProxy: trustedProxyOption(trustedProxies),
    ...requestIdOptions,
    // One access-log line per request (installRequestLogging) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Router errors (an undecodable URL) bypass the error handler: answer them with a problem too.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'request rejected by the router');
      void sendProblem(reply, genericProblem(error.statusCode ?? 400));
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a request head over the server's
 * `maxHeaderSize`, a malformed request, a timeout) get a problem body too, as Fastify's default handler
 * would answer them otherwise with its own JSON; then the connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const problem = genericProblem(status);
  if (status === 431) {
    problem.detail =
      'The request line and headers are too large; shorten the URL (send fewer ids per request) or the headers.';
  }
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${problem.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
 * `httpMetrics`, also counts and times each one; while tracing is on, gives each one a span.
 */
export function installRequestLogging(app: FastifyInstance, httpMetrics?: HttpMetrics): void {
  installRequestTracing(app);
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

/**
 * Fastify's `trustProxy` for a list of proxy addresses or CIDRs (config TRUSTED_PROXIES): with none,
 * X-Forwarded-* is ignored and the socket's peer is the client, so no client can choose its address.
 */
export function trustedProxyOption(trustedProxies: readonly string[]): FastifyServerOptions['trustProxy'] {
  return trustedProxies.length === 0 ? false : [...trustedProxies];
}
