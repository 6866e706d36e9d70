import { isDatabaseUnavailableError } from '@directory/database';
import { InvalidCursorError, SearchUnavailableError } from './directory.service.js';
import { problemFor, unavailableWhen, type ProblemMapping } from '@directory/http-server';
import { keyedAccessProblemMappings } from '@directory/keyed-access';

const invalidCursor: ProblemMapping = (error) =>
  error instanceof InvalidCursorError
    ? {
        problem: problemFor('invalidParameter', 'The cursor cannot be used with this request.', [
          { parameter: 'cursor', reason: error.reason },
        ]),
      }
    : undefined;

const searchUnavailable: ProblemMapping = (error, request) => {
  if (!(error instanceof SearchUnavailableError)) return undefined;
  request.log.error({ err: error.cause }, 'search unavailable');
  return { problem: problemFor('unavailable', 'Search is temporarily unavailable; retry later.') };
};

/** What the directory throws, as problems: an unusable cursor (400) and a search cluster that does not answer (503). */
export const directoryProblemMappings: ReadonlyArray<ProblemMapping> = [invalidCursor, searchUnavailable];

/**
 * Every error type of a search-serving app (the API, the MCP server) besides ProblemError: the
 * directory's, keyed access's, and a database that does not answer (503).
 */
export const searchServiceProblemMappings: ReadonlyArray<ProblemMapping> = [
  ...directoryProblemMappings,
  ...keyedAccessProblemMappings,
  unavailableWhen(isDatabaseUnavailableError),
];
