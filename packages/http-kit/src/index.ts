export { registerKeyedAccess, requireApiKey, type KeyedAccessOptions } from './auth.plugin.js';
export { createServiceRedis, openStores, type Stores } from './backends.js';
export { installErrorHandling } from './error-handler.js';
export { loggerOptions, requestIdOptions, type LoggerOptions } from './logging.js';
export {
  ProblemError,
  problemSchema,
  type ParameterError,
  type Problem,
  type ProblemKind,
} from './problem.js';
export {
  baseServerOptions,
  buildLogger,
  installRequestLogging,
  trustedProxyOption,
  type LogOptions,
} from './server-options.js';
export { serveUntilSignal, type ServeOptions } from './serve.js';
export { runSearchService, type SearchServiceDependencies, type ServicePorts } from './search-service.js';
