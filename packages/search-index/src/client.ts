import { Client, SniffingTransport, type TransportOptions } from '@elastic/elasticsearch';

export type SearchClient = Client;

// Waiting out an outage is the caller's job (the worker's capped backoff, the API's 503 problem): the
// client's own retries only move a request to another node or past a blip, so they wait 0.1 s, not the
// transport's default exponential pause of up to 4 s per retry (about 7 s per failed call with 3 retries).
const RETRY_PAUSE_SECONDS = 0.1;

/**
 * The transport with prompt retries. `retryOnTimeout`: with several nodes a timed-out request is retried
 * on another (the transport does not retry timeouts by default); with one node a timeout is final, so a
 * hung cluster costs a caller one timeout, not two.
 */
function promptRetryTransport(retryOnTimeout: boolean): typeof SniffingTransport {
  return class PromptRetryTransport extends SniffingTransport {
    constructor(options: TransportOptions) {
      super({ ...options, retryBackoff: () => RETRY_PAUSE_SECONDS, retryOnTimeout });
    }
  };
}

/**
 * One client per process. Short timeouts and bounded retries: a slow cluster must surface as an error, not a
 * hang. Given several nodes of one cluster, the client spreads requests over them and retries a request
 * that failed on one node (connection refused, reset, timed out) on another, so losing a node is not an
 * error for callers while a copy of every shard remains.
 */
export function createSearchClient(
  nodes: string | readonly string[],
  options: { timeoutMs?: number; maxRetries?: number } = {},
): Client {
  const urls = typeof nodes === 'string' ? [nodes] : [...nodes];
  return new Client({
    nodes: urls,
    requestTimeout: options.timeoutMs ?? 3_000,
    // With several nodes, enough retries to meet every node once and one more: the attempt that met the
    // lost node (refused, reset) and the one a surviving node answered 503 while the cluster dropped the
    // lost node's shard copies must both leave a try for the survivor.
    maxRetries: Math.max(options.maxRetries ?? 1, urls.length > 1 ? urls.length : 0),
    compression: false,
    Transport: promptRetryTransport(urls.length > 1),
  });
}
