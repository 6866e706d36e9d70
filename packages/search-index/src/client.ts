import { Client } from '@elastic/elasticsearch';

export type SearchClient = Client;

/** One client per process. Short timeouts and bounded retries: a slow cluster must surface as an error, not a hang. */
export function createSearchClient(
  url: string,
  options: { timeoutMs?: number; maxRetries?: number } = {},
): Client {
  return new Client({
    node: url,
    requestTimeout: options.timeoutMs ?? 3_000,
    maxRetries: options.maxRetries ?? 1,
    compression: false,
  });
}
