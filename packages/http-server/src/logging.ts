import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { API_KEY_PREFIX_SOURCE, containsApiKeyPrefix } from '@directory/domain';

// Either mode's prefix and whatever follows it: linear, no backtracking.
const SECRET_IN_TEXT = new RegExp(`${API_KEY_PREFIX_SOURCE}[0-9A-Za-z]*`, 'g');
const KEY_LIKE_NAME = /key|token|auth|secret|password/i;
const REDACTED = '[redacted]';

/**
 * The URL as it may be logged: any API-key-like value (a key-like parameter's value, or a `dk_live_`
 * or `dk_test_` secret anywhere, even percent-encoded) is replaced, so a key a client wrongly put in the URL never
 * reaches the logs.
 */
export function sanitizeUrl(url: string): string {
  const questionMark = url.indexOf('?');
  const rawPath = questionMark === -1 ? url : url.slice(0, questionMark);
  const path = containsSecret(rawPath) ? rawPath.replace(SECRET_IN_TEXT, REDACTED) : rawPath;
  const safePath = containsSecret(path) ? REDACTED : path;
  if (questionMark === -1) return safePath;
  const pairs = url
    .slice(questionMark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = containsSecret(rawName) ? REDACTED : rawName;
      if (equals === -1) return name;
      const rawValue = pair.slice(equals + 1);
      const hide = KEY_LIKE_NAME.test(safeDecode(rawName)) || containsSecret(rawValue);
      return `${name}=${hide ? REDACTED : rawValue}`;
    });
  return `${safePath}?${pairs.join('&')}`;
}

function containsSecret(raw: string): boolean {
  return containsApiKeyPrefix(safeDecode(raw).toLowerCase());
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** pino options: request ids, secrets redacted, sanitized URLs, no request headers logged at all. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.authorization',
        'headers["x-api-key"]',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; id: string }) => ({
        id: request.id,
        method: request.method,
        url: sanitizeUrl(request.url),
      }),
    },
  };
}

export const requestIdOptions = {
  genReqId: () => randomUUID(),
  // Never trust a client-chosen id (log injection); ours is echoed in X-Request-Id instead.
  requestIdHeader: false,
} satisfies Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'>;
