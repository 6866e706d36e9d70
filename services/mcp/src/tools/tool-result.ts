import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { InvalidCursorError, SearchUnavailableError } from '@directory/search';
import type { ParameterError } from '@directory/domain';
import { displayable } from './displayable.js';

/**
 * Tool errors are results with `isError: true` (the model sees them and can correct its call), never
 * JSON-RPC protocol errors. Their wording is the HTTP API's: the same reasons per parameter.
 */
export function invalidArguments(tool: string, input: readonly ParameterError[]): CallToolResult {
  // Argument names are the client's text: one line each, whatever they hold.
  const errors = displayable(input);
  const lines = errors.map(({ parameter, reason }) => `- ${parameter}: ${reason}`);
  return toolError(`Invalid arguments; fix them and call ${tool} again:\n${lines.join('\n')}`);
}

export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Failures of the query service as tool errors. Anything unexpected is logged and answered with a
 * generic text: the SDK would otherwise put the raw error message (internals) in front of the client.
 */
export function failedCall(tool: string, error: unknown, log: FastifyBaseLogger): CallToolResult {
  if (error instanceof InvalidCursorError) {
    return invalidArguments(tool, [{ parameter: 'cursor', reason: error.reason }]);
  }
  if (error instanceof SearchUnavailableError) {
    log.error({ err: error.cause, tool }, 'search unavailable');
    return toolError('Search is temporarily unavailable; retry later.');
  }
  log.error({ err: error, tool }, 'tool call failed');
  return toolError('The request could not be completed.');
}
