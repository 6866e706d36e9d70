import type { Client } from '@elastic/elasticsearch';
import type { Database } from '@directory/database';
import { createDirectory, type Datasets, type SearchRequestCache } from '@directory/search';
import { ensureDoctorsIndex } from '@directory/search-index';
import { SITE_ORIGIN } from './place-fixtures.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * A spec's sandbox dataset, as `dk_test_` keys read it: a database of its own (a clone of the migrated
 * template, like the live one) and an alias of its own beside the live alias.
 */
export type TestSandbox = { database: TestDatabase; alias: string };

export async function createTestSandbox(
  label: string,
  client: Client,
  liveAlias: string,
): Promise<TestSandbox> {
  const database = await createTestDatabase(`${label}-sandbox`);
  const alias = `${liveAlias}-sandbox`;
  await ensureDoctorsIndex(client, alias);
  return { database, alias };
}

/** The datasets an app of a spec reads: the live alias and database, and the spec's sandbox. */
export function testDatasets(options: {
  client: Client;
  live: { alias: string; db: Database };
  sandbox: TestSandbox;
  cursorSecret: string;
  siteOrigin?: string;
  /** In front of the live directory only, as in a deployed process. */
  cache?: SearchRequestCache;
}): Datasets {
  const { client, cursorSecret, siteOrigin = SITE_ORIGIN } = options;
  return {
    live: {
      directory: createDirectory({
        client,
        alias: options.live.alias,
        siteOrigin,
        cursorSecret,
        ...(options.cache ? { cache: options.cache } : {}),
      }),
      db: options.live.db,
    },
    test: {
      directory: createDirectory({ client, alias: options.sandbox.alias, siteOrigin, cursorSecret }),
      db: options.sandbox.database.db,
    },
  };
}
