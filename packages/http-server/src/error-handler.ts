import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { genericProblem, problemFor, ProblemError, type Problem } from './problem.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A problem an app chose for one of its own error types, with any headers it needs (Retry-After). */
export type MappedProblem = { problem: Problem; headers?: Readonly<Record<string, string>> };

/**
 * Turns an error type the generic handler does not know (a package's own errors) into a problem, or
 * answers undefined to pass. A mapping may log: the generic handler logs nothing for a mapped error.
 */
export type ProblemMapping = (error: Error, request: FastifyRequest) => MappedProblem | undefined;

export type ErrorHandlingOptions = {
  /** The detail of the 404 problem for a path no route serves. */
  notFoundDetail: string;
  /** The app's own error types, tried in order after ProblemError and before the generic cases. */
  mappings?: ReadonlyArray<ProblemMapping>;
};

/**
 * The one error handler (shared by the API and the MCP server) and the one not-found handler: every
 * failure becomes a problem+json body. Only our own error types choose the wording (ProblemError, and
 * the types of the app's mappings); anything else gets a generic body (no stack traces, no
 * Elasticsearch or database internals) and is logged in full on the server side.
 */
export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions): void {
  const mappings = options.mappings ?? [];
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toMappedProblem(error, request, mappings);
    for (const [name, value] of Object.entries(mapped.headers ?? {})) reply.header(name, value);
    return sendProblem(reply, mapped.problem);
  });

  app.setNotFoundHandler(async (_request, reply) =>
    sendProblem(reply, problemFor('notFound', options.notFoundDetail)),
  );
}

export async function sendProblem(reply: FastifyReply, problem: Problem): Promise<FastifyReply> {
  if (problem.status === 401) reply.header('www-authenticate', 'Bearer realm="doctor-directory"');
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

/**
 * The problem an error is answered with (ProblemError's own, an app's mapping, or the generic one): the
 * one choice of status and wording, which an app answering in another format (FHIR's
 * OperationOutcome) renders its own way.
 */
export function toMappedProblem(
  error: FastifyError,
  request: FastifyRequest,
  mappings: ReadonlyArray<ProblemMapping>,
): MappedProblem {
  if (error instanceof ProblemError) return { problem: error.problem };
  for (const mapping of mappings) {
    const mapped = mapping(error, request);
    if (mapped !== undefined) return mapped;
  }
  return { problem: genericProblemFor(error, request) };
}

function genericProblemFor(error: FastifyError, request: FastifyRequest): Problem {
  if (isConnectionFailure(error)) return backingServiceUnavailable(error, request);
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

/**
 * A mapping for the errors that mean a backing service (a database, Redis…) could not be reached: an
 * outage is a logged 503, not a bug. The package that owns the connection says which errors those are.
 */
export function unavailableWhen(isUnavailable: (error: Error) => boolean): ProblemMapping {
  return (error, request) =>
    isUnavailable(error) ? { problem: backingServiceUnavailable(error, request) } : undefined;
}

function backingServiceUnavailable(error: Error, request: FastifyRequest): Problem {
  request.log.error({ err: error }, 'a backing service is unavailable');
  return problemFor('unavailable', 'The service is temporarily unavailable; retry later.');
}

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
