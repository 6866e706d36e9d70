import { DirectoryApiError, readProblem, redact } from './errors.js';
import { EtagCache, type EtagCacheOptions } from './etag-cache.js';
import {
  DEFAULT_BACKOFF,
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  type BackoffOptions,
} from './retry.js';

export const CLIENT_VERSION = '1.5.0';

export type RetryOptions = BackoffOptions & {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  retries: number;
  /**
   * The longest `Retry-After` the client waits out (default 60 s). A longer one (a key far over its quota)
   * is not slept through: the 429 or 503 is thrown at once, with `retryAfterMs` set.
   */
  maxRetryAfterMs: number;
};

export type TransportOptions = {
  apiKey: string;
  fetch: typeof fetch;
  retry: RetryOptions;
  /** Prepended to the client's own `User-Agent` product token. */
  userAgent: string | undefined;
  /** `false` turns revalidation off. */
  etagCache: EtagCacheOptions | false;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  now: () => number;
};

export type RequestOptions = {
  /** Cancels the request and any wait between retries. */
  signal?: AbortSignal;
};

export type Transport = {
  /** GET `url` and parse the JSON answer; a 304 answers with the body kept for `url`. */
  getJson: <Body>(url: string, options?: RequestOptions) => Promise<Body>;
  readonly cache: EtagCache | undefined;
};

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createTransport(options: TransportOptions): Transport {
  const cache = options.etagCache === false ? undefined : new EtagCache(options.etagCache);
  const userAgent = [options.userAgent, `directory-client/${CLIENT_VERSION}`].filter(Boolean).join(' ');

  async function attempt(url: string, signal: AbortSignal | undefined) {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      'x-api-key': options.apiKey,
      'user-agent': userAgent,
    };
    const cached = cache?.get(url);
    if (cached) headers['if-none-match'] = cached.etag;
    const response = await options.fetch(url, { method: 'GET', headers, ...(signal ? { signal } : {}) });
    return { response, cached };
  }

  async function getJson<Body>(url: string, requestOptions: RequestOptions = {}): Promise<Body> {
    const { signal } = requestOptions;
    const { retry } = options;
    for (let retriesDone = 0; ; retriesDone += 1) {
      let result: Awaited<ReturnType<typeof attempt>>;
      try {
        result = await attempt(url, signal);
      } catch (error) {
        // Every call of this client is a GET, so a request lost to the network is safe to send again.
        if (signal?.aborted || retriesDone >= retry.retries) throw error;
        await options.sleep(backoffDelay(retriesDone, retry, options.random), signal);
        continue;
      }
      const { response, cached } = result;
      if (response.status === 304 && cached) {
        await response.body?.cancel();
        return JSON.parse(cached.body) as Body;
      }
      const text = await response.text();
      if (response.ok) {
        const etag = response.headers.get('etag');
        if (cache && etag) cache.set(url, { etag, body: text });
        return JSON.parse(text) as Body;
      }
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), options.now());
      const retryable = isRetryableStatus(response.status) && retriesDone < retry.retries;
      if (retryable && (retryAfterMs === undefined || retryAfterMs <= retry.maxRetryAfterMs)) {
        await options.sleep(retryAfterMs ?? backoffDelay(retriesDone, retry, options.random), signal);
        continue;
      }
      throw apiError(response, text, url, retryAfterMs);
    }
  }

  function apiError(response: Response, text: string, url: string, retryAfterMs: number | undefined) {
    const problem = readProblem(response.status, response.statusText, text);
    const clean = (value: string) => redact(value, options.apiKey);
    return new DirectoryApiError({
      ...problem,
      title: clean(problem.title),
      detail: clean(problem.detail),
      errors: problem.errors.map((error) => ({
        parameter: clean(error.parameter),
        reason: clean(error.reason),
      })),
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfterMs,
      method: 'GET',
      url,
    });
  }

  return { getJson, cache };
}

export const DEFAULT_RETRY: RetryOptions = { ...DEFAULT_BACKOFF, retries: 3, maxRetryAfterMs: 60_000 };
