import { loadConfig } from '@directory/config';
import { SITE_ORIGIN } from './place-fixtures.js';

/**
 * The environment of the project's processes started by a test (`startProcess`): the spec's own
 * database, Redis prefix and index alias on the shared servers, the test site origin, info logs, then
 * whatever the spec adds or overrides.
 */
export function processEnvironment(
  stores: { databaseUrl: string; redisPrefix: string; alias: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: loadConfig().REDIS_URL,
    REDIS_PREFIX: stores.redisPrefix,
    ELASTICSEARCH_INDEX: stores.alias,
    SITE_ORIGIN,
    LOG_LEVEL: 'info',
    ...extra,
  };
}
