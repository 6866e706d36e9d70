import { z } from 'zod';
import type { ParameterError } from '@directory/domain';

/**
 * RFC 9457 problem details: the one error body of the API and the MCP server, for every 4xx and 5xx.
 * `type` is a relative URI reference (resolved against the server's origin) documented in docs/api.md
 * and docs/mcp.md; `errors` names each bad parameter and why (empty when the problem is not about a
 * parameter). Details never carry stack traces, internal messages or a value the client sent.
 */
export const parameterErrorSchema = z.strictObject({
  parameter: z.string().meta({ description: 'The query or path parameter (or header) at fault' }),
  reason: z.string().meta({ description: 'Why it was rejected' }),
}) satisfies z.ZodType<ParameterError>;

export const problemSchema = z
  .strictObject({
    type: z.string().meta({ description: 'URI reference identifying the problem type' }),
    title: z.string().meta({ description: 'Short summary of the problem type' }),
    status: z.number().int().min(400).max(599).meta({ description: 'The HTTP status code' }),
    detail: z.string().meta({ description: 'What went wrong with this request' }),
    errors: z.array(parameterErrorSchema).meta({ description: 'Every bad parameter and why; may be empty' }),
    mergedInto: z.string().optional().meta({
      description:
        'API 1.4, only on the 404 of a record merged into another (the same practice listed twice): the id of the record that survives (the end of a chain of merges). Fetch that one instead.',
    }),
    mergedAt: z.iso.datetime({ offset: true }).optional().meta({
      description: 'API 1.4, with `mergedInto`: when this record was merged away (ISO 8601)',
    }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json)' });
export type Problem = z.infer<typeof problemSchema>;

export const PROBLEM_TYPES = {
  invalidParameter: { type: '/problems/invalid-parameter', title: 'Invalid request parameter', status: 400 },
  keyInQuery: { type: '/problems/key-in-query', title: 'API key sent in the URL', status: 400 },
  unsupportedProtocolVersion: {
    type: '/problems/unsupported-protocol-version',
    title: 'Unsupported MCP protocol version',
    status: 400,
  },
  batchNotSupported: {
    type: '/problems/batch-not-supported',
    title: 'JSON-RPC batches are not supported',
    status: 400,
  },
  unauthorized: { type: '/problems/unauthorized', title: 'Missing or invalid API key', status: 401 },
  forbiddenOrigin: { type: '/problems/forbidden-origin', title: 'Origin or host not allowed', status: 403 },
  notFound: { type: '/problems/not-found', title: 'Not found', status: 404 },
  methodNotAllowed: { type: '/problems/method-not-allowed', title: 'Method not allowed', status: 405 },
  rateLimited: { type: '/problems/rate-limited', title: 'Too many requests', status: 429 },
  unavailable: { type: '/problems/unavailable', title: 'Service temporarily unavailable', status: 503 },
  internal: { type: '/problems/internal', title: 'Internal server error', status: 500 },
} as const;
export type ProblemKind = keyof typeof PROBLEM_TYPES;

/** The API's one error type: thrown anywhere, turned into a problem body by the one error handler. */
/** Members a problem adds to the five every problem has (RFC 9457 extension members). */
export type ProblemExtensions = Pick<Problem, 'mergedInto' | 'mergedAt'>;

export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(
    kind: ProblemKind,
    detail: string,
    errors: ParameterError[] = [],
    extensions: ProblemExtensions = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    const { type, title, status } = PROBLEM_TYPES[kind];
    this.problem = { type, title, status, detail, errors, ...extensions };
  }
}

export function problemFor(kind: ProblemKind, detail: string, errors: ParameterError[] = []): Problem {
  return new ProblemError(kind, detail, errors).problem;
}

/** Problems for statuses the API does not raise itself (framework errors such as 413 or 415). */
export function genericProblem(status: number): Problem {
  return {
    type: 'about:blank',
    title: GENERIC_TITLES[status] ?? (status < 500 ? 'Bad request' : 'Server error'),
    status,
    detail: status < 500 ? 'The request could not be processed.' : 'The request could not be completed.',
    errors: [],
  };
}

const GENERIC_TITLES: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Content too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  431: 'Request header fields too large',
};
