import { Client } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import { buildApp } from '@directory/api';
import { loadConfig } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createDirectory } from '@directory/search';

/**
 * The API's OpenAPI document as `GET /openapi.json` serves it, built without any server: the app is
 * built over clients that never connect (nothing below sends a query; Redis connects lazily) and the
 * document is read with `inject`. Linting and the example checks need no PostgreSQL, Redis or Elasticsearch.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig();
  const db = createDatabase('postgres://openapi-document.invalid/none');
  const redis = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  const client = new Client({ node: 'http://openapi-document.invalid:9200' });
  const documentDirectory = (alias: string) =>
    createDirectory({ client, alias, siteOrigin: config.SITE_ORIGIN, cursorSecret: config.CURSOR_SECRET });
  const app = await buildApp(
    {
      db,
      redis,
      redisPrefix: 'openapi-document',
      // Never queried: the document only names the routes.
      datasets: {
        live: { directory: documentDirectory('openapi-document'), db },
        test: { directory: documentDirectory('openapi-document-sandbox'), db },
      },
      cursorSecret: config.CURSOR_SECRET,
      siteOrigin: config.SITE_ORIGIN,
      rateLimit: { max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_S },
      accountMax: config.ACCOUNT_RATE_LIMIT_MAX,
      failedAuth: { max: 1, windowSeconds: 1, refusalDelayMs: 0 },
      unknownKeyCacheSeconds: 0,
      trustedProxies: [],
      clientIpv6PrefixBits: config.CLIENT_IPV6_PREFIX_BITS,
    },
    { logLevel: false },
  );
  try {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);
    return response.json<Record<string, unknown>>();
  } finally {
    await app.close();
    redis.disconnect();
    await db.destroy();
    await client.close();
  }
}
