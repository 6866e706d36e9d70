import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import {
  RECORD_SHAPE_PARAMETERS,
  parseRecordShape,
  safeParameterName,
  type ParameterError,
  type RecordShape,
  type Result,
} from '@directory/domain';
import { ProblemError } from '@directory/http-server';

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

/** Runs a domain parameter parser over the query string: its value, or a 400 naming every bad parameter. */
export function parsedQuery<T>(
  request: FastifyRequest,
  parse: (raw: Record<string, unknown>) => Result<T, ParameterError[]>,
): T {
  const parsed = parse(request.query as Record<string, unknown>);
  if (parsed.ok) return parsed.value;
  throw new ProblemError(
    'invalidParameter',
    'One or more query parameters are invalid; see errors.',
    parsed.error,
  );
}

/**
 * A route whose only parameters are `fields` and `lang` (single get): a request using neither takes no
 * query parameters at all, and its 400 names no known ones, as the route answered before it had any
 * (docs/api.md, "Compatibility").
 */
export function parsedRecordShape(request: FastifyRequest): RecordShape {
  const raw = request.query as Record<string, unknown>;
  if (!RECORD_SHAPE_PARAMETERS.some((name) => raw[name] !== undefined)) {
    rejectQueryParameters(request);
    return {};
  }
  return parsedQuery(request, parseRecordShape);
}
