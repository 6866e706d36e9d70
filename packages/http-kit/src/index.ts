export { registerAuth, registerKeyedAccess, requireApiKey, type KeyedAccessOptions } from './auth.plugin.js';
export { openSearchStores, openStores, type SearchStores, type Stores } from './backends.js';
export { installErrorHandling, sendProblem, PROBLEM_CONTENT_TYPE } from './error-handler.js';
export { loggerOptions, requestIdOptions, sanitizeUrl, type LoggerOptions } from './logging.js';
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
export { baseServerOptions, buildLogger, installRequestLogging, type LogOptions } from './server-options.js';
export { serveUntilSignal, type ServeOptions } from './serve.js';
