import type { LoggerOptions } from '@directory/http-server';

/**
 * pino options, stricter than http-server's (which keeps sanitized query strings and redacts only API-key
 * headers): requests are logged as id, method and path only (no headers, so no cookies; no bodies,
 * so no passwords, CSRF tokens or link tokens; the query string, where a mailed link carries its token,
 * is cut off). The redact paths are a second line of defence for anything that
 * logs a request or reply object in full.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        'body.password',
        'body._csrf',
        'body.token',
        'body.currentPassword',
        'body.newPassword',
        '*.currentPassword',
        '*.newPassword',
        '*.token',
        '*.password',
        '*.secret',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; id: string }) => ({
        id: request.id,
        method: request.method,
        url: request.url.split('?')[0],
      }),
    },
  };
}
