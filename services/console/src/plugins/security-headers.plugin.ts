import type { FastifyInstance } from 'fastify';

// No inline script or style anywhere: the page's CSS and JS are served from /assets on our own origin.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers on every response: no framing, no referrer leaks, no sniffing, no caching of pages. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    // Pages can show a secret once; no browser or proxy cache may keep a copy. Assets may be cached.
    if (!request.url.startsWith('/assets/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
