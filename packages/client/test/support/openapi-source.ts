import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { buildApp } from '@directory/api';
import { createDatabase } from '@directory/database';
import { createDirectory } from '@directory/search';
import { createSearchClient } from '@directory/search-index';

/** The committed types, generated from the document by `npm run -w @directory/client generate`. */
export const GENERATED_TYPES_FILE = fileURLToPath(new URL('../../src/generated/openapi.ts', import.meta.url));

// Nothing listens on port 1: the app is built to read its document, and no request ever reaches a store.
const NOWHERE = '127.0.0.1:1';

/**
 * The API's OpenAPI document as `/openapi.json` serves it, without any server: the app is built over
 * stores that connect lazily and are never asked anything (the document comes from the route schemas).
 */
export async function readApiDocument(): Promise<Record<string, unknown>> {
  const db = createDatabase(`postgres://postgres@${NOWHERE}/none`);
  const redis = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false });
  const app = await buildApp(
    {
      db,
      redis,
      redisPrefix: 'openapi-document:',
      directory: createDirectory({
        client: createSearchClient(`http://${NOWHERE}`),
        alias: 'none',
        siteOrigin: 'https://example.invalid',
        cursorSecret: 'document-only-cursor-secret-0123456789',
      }),
      cursorSecret: 'document-only-cursor-secret-0123456789',
      rateLimit: { max: 1, windowSeconds: 60 },
      accountMax: 1,
      failedAuth: { max: 1, windowSeconds: 60, refusalDelayMs: 0 },
      unknownKeyCacheSeconds: 60,
      trustedProxies: [],
      clientIpv6PrefixBits: 64,
    },
    { logLevel: false },
  );
  try {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    return response.json<Record<string, unknown>>();
  } finally {
    await app.close();
    redis.disconnect();
    await db.destroy();
  }
}

const BANNER = `// Generated from the API's OpenAPI document by openapi-typescript: do not edit.
// Regenerate with \`npm run -w @directory/client generate\`; test/generated-types.unit.spec.ts fails while
// this file is stale.
/* eslint-disable @typescript-eslint/consistent-type-definitions -- openapi-typescript writes \`operations\` as an interface */
`;

/** The TypeScript types of the document, as the committed file should hold them. */
export async function generateTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, {
    alphabetize: false,
    exportType: true,
  });
  // Formatted as the repository formats code, so the committed file passes the format check as written.
  const options = await resolveConfig(GENERATED_TYPES_FILE);
  return format(BANNER + astToString(ast), { ...options, filepath: GENERATED_TYPES_FILE });
}

export function readCommittedTypes(): string {
  return readFileSync(GENERATED_TYPES_FILE, 'utf8');
}
