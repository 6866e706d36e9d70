export { registerAuth, requireApiKey } from './auth.plugin.js';
export { installErrorHandling, sendProblem, PROBLEM_CONTENT_TYPE } from './error-handler.js';
export { loggerOptions, requestIdOptions, sanitizeUrl } from './logging.js';
export {
  PROBLEM_TYPES,
  ProblemError,
  UNAUTHORIZED_DETAIL,
  genericProblem,
  parameterErrorSchema,
  problemFor,
  problemSchema,
  type ParameterError,
  type Problem,
  type ProblemKind,
} from './problem.js';
export { baseServerOptions, installRequestLogging, type LogOptions } from './server-options.js';
