// The package's surface: the configuration and the Redis clients built from it.
export * from './config.js';
export * from './redis-client.js';
