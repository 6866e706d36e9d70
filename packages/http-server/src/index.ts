export { entityTagOf } from './conditional-get.js';
export {
  installErrorHandling,
  toMappedProblem,
  unavailableWhen,
  type MappedProblem,
  type ProblemMapping,
} from './error-handler.js';
export { requestIdOptions, type LoggerOptions } from './logging.js';
export { registerHttpCaching, type HttpCachingOptions } from './http-caching.plugin.js';
export { PROBLEM_TYPES, ProblemError, problemFor, problemSchema, type ProblemKind } from './problem.js';
export {
  baseServerOptions,
  buildLogger,
  installRequestLogging,
  trustedProxyOption,
  type LogOptions,
} from './server-options.js';
export { installRequestTracing } from './request-spans.js';
export { closeConnections, serveUntilSignal } from './serve.js';
export { MAX_IPV6_PREFIX_BITS, MIN_IPV6_PREFIX_BITS, clientAddressGroup } from './client-address.js';
