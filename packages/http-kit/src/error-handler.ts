import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailableError } from '@directory/database';
import { InvalidCursorError, SearchUnavailableError } from '@directory/directory';
import { RateLimitExceededError, TooManyAttemptsError, isRedisUnavailableError } from '@directory/rate-limit';
import { genericProblem, problemFor, ProblemError, type Problem } from './problem.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The one error handler (shared by the API and the MCP server) and the one not-found handler: every failure becomes a problem+json body.
 * Only our own error types choose the wording; anything else gets a generic body (no stack traces,
 * no Elasticsearch or database internals) and is logged in full on the server side.
 */
export function installErrorHandling(app: FastifyInstance, options: { notFoundDetail: string }): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // The per-key limiter sets its own Retry-After; the other throttles set it here.
    if (error instanceof TooManyAttemptsError) reply.header('retry-after', String(error.retryAfterSeconds));
    const problem = toProblem(error, request);
    return sendProblem(reply, problem);
  });

  app.setNotFoundHandler(async (_request, reply) =>
    sendProblem(reply, problemFor('notFound', options.notFoundDetail)),
  );
}

export async function sendProblem(reply: FastifyReply, problem: Problem): Promise<FastifyReply> {
  if (problem.status === 401) reply.header('www-authenticate', 'Bearer realm="doctor-directory"');
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

function toProblem(error: FastifyError, request: FastifyRequest): Problem {
  if (error instanceof ProblemError) return error.problem;
  if (error instanceof InvalidCursorError) {
    return problemFor('invalidParameter', 'The cursor cannot be used with this request.', [
      { parameter: 'cursor', reason: error.reason },
    ]);
  }
  if (error instanceof RateLimitExceededError) {
    return problemFor(
      'rateLimited',
      `This API key has used its request quota for the current window; retry after ${error.retryAfterSeconds} seconds (Retry-After).`,
    );
  }
  if (error instanceof TooManyAttemptsError) {
    // Not logged here: the access line records the 429, and a flood must not double its log volume.
    return problemFor('rateLimited', TOO_MANY_ATTEMPTS_DETAIL[error.reason](error.retryAfterSeconds));
  }
  if (error instanceof SearchUnavailableError) {
    request.log.error({ err: error.cause }, 'search unavailable');
    return problemFor('unavailable', 'Search is temporarily unavailable; retry later.');
  }
  if (isRedisUnavailableError(error) || isDatabaseUnavailableError(error) || isConnectionFailure(error)) {
    request.log.error({ err: error }, 'a backing service is unavailable');
    return problemFor('unavailable', 'The service is temporarily unavailable; retry later.');
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return problemFor('internal', 'The request could not be completed.');
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Framework errors (bad URL encoding, oversized request…): their messages may quote the input.
    request.log.info({ code: error.code, status }, 'request rejected by the framework');
    return genericProblem(status);
  }
  request.log.error({ err: error }, 'unhandled error');
  return status === 503
    ? problemFor('unavailable', 'The service is temporarily unavailable; retry later.')
    : problemFor('internal', 'The request could not be completed.');
}

const TOO_MANY_ATTEMPTS_DETAIL: Record<TooManyAttemptsError['reason'], (seconds: number) => string> = {
  failedAuthentication: (seconds) =>
    `Too many requests with a missing, malformed, unknown or revoked API key came from this address; retry after ${seconds} seconds (Retry-After).`,
  accountCeiling: (seconds) =>
    `The account this API key belongs to has used its request ceiling across all its keys for the current window; retry after ${seconds} seconds (Retry-After).`,
};

const CONNECTION_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

// PostgreSQL (pg) and socket errors carry a Node system error code; an outage is a 503, not a bug.
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECTION_FAILURE_CODES.has(code);
}
