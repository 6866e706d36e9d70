import { loadConfig } from '@directory/config';
import { createSearchClient, type SearchClient } from '@directory/search-index';
import { uniqueName } from './names.js';

export type TestSearch = { client: SearchClient; prefix: string; cleanup: () => Promise<void> };

/** An Elasticsearch client plus an index prefix of the spec's own; cleanup deletes every index under it. */
export function createTestSearch(label: string): TestSearch {
  const client = createSearchClient(loadConfig().ELASTICSEARCH_URL, { timeoutMs: 30_000 });
  const prefix = uniqueName(label);
  return {
    client,
    prefix,
    cleanup: async () => {
      await client.indices.delete({ index: `${prefix}*`, expand_wildcards: 'all' }, { ignore: [404] });
      await client.close();
    },
  };
}
