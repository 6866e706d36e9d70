export { createDirectoryClient, type DirectoryClient, type DirectoryClientOptions } from './client.js';
export { DirectoryApiError, type ParameterError, type Problem } from './errors.js';
export { syncMirror, type MirrorOptions, type MirrorResult, type MirrorStore } from './mirror.js';
export { EtagCache, type EtagCacheOptions } from './etag-cache.js';
export { backoffDelay, parseRetryAfter, type BackoffOptions } from './retry.js';
export type { RequestOptions, RetryOptions } from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
