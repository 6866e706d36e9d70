import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { safeParameterName } from '@directory/domain';
import { ProblemError } from '@directory/http-kit';

/**
 * Route schemas document the inputs (OpenAPI); the handlers validate them with the domain's rules,
 * which report every bad parameter at once and reject unknown ones. This compiler lets the raw input
 * through to them unchanged.
 */
export const documentOnly: FastifySchemaCompiler<unknown> = () => (data: unknown) => ({ value: data });

/** Routes without query parameters reject any: a typo must not pass silently. */
export function rejectQueryParameters(request: FastifyRequest): void {
  const names = Object.keys(request.query as Record<string, unknown>);
  if (names.length === 0) return;
  throw new ProblemError(
    'invalidParameter',
    'This operation takes no query parameters.',
    names.map((name) => ({ parameter: safeParameterName(name), reason: 'is not a known parameter' })),
  );
}
