import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ProblemError } from '@directory/http-server';

export type TransportGuardOptions = {
  /** Browser origins allowed to call the server (config MCP_ALLOWED_ORIGINS); no Origin is always fine. */
  allowedOrigins: readonly string[];
  /** Host header values accepted besides the loopback names (config MCP_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
};

/**
 * Transport hardening from the MCP specification's security guidance, applied to every request
 * before authentication:
 * - DNS rebinding: a web page on a rebound domain reaches us with its own name in Host. Only the
 *   loopback names on the port the connection arrived at, and the configured hosts, are accepted.
 * - Origin: browsers always send it; a present Origin outside the allowlist is refused (403), an
 *   allowlisted one gets CORS headers. Non-browser clients send none and are allowed.
 */
export function registerTransportGuard(app: FastifyInstance, options: TransportGuardOptions): void {
  const origins = new Set(options.allowedOrigins);
  const hosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  app.addHook('onRequest', (request, reply, done) => {
    if (!isAllowedHost(request, hosts)) {
      done(new ProblemError('forbiddenOrigin', 'The Host header names a host this server does not serve.'));
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      done(
        new ProblemError(
          'forbiddenOrigin',
          'Requests from this Origin are not allowed; non-browser clients send no Origin header.',
        ),
      );
      return;
    }
    if (origin !== undefined) allowCrossOrigin(reply, origin);
    done();
  });
}

// An allowlisted browser origin must also be let through CORS, or the browser hides every answer.
const EXPOSED_HEADERS =
  'RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, X-Request-Id';
export const CORS_PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'Authorization, X-API-Key, Content-Type, Accept, MCP-Protocol-Version',
  'access-control-max-age': '600',
} as const;

function allowCrossOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  reply.header('vary', 'Origin');
}

function isAllowedHost(request: FastifyRequest, configured: ReadonlySet<string>): boolean {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined) return false;
  if (configured.has(host)) return true;
  const port = request.socket.localPort;
  return port !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host);
}

/**
 * `MCP-Protocol-Version` names the revision the client negotiated; a value this SDK does not speak is
 * refused with 400 (absent means the client predates the header and is served as 2025-03-26).
 */
export function rejectUnsupportedProtocolVersion(request: FastifyRequest): void {
  const version = request.headers['mcp-protocol-version'];
  if (version === undefined) return;
  if (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return;
  throw new ProblemError(
    'unsupportedProtocolVersion',
    `Unsupported MCP-Protocol-Version; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    [
      {
        parameter: 'MCP-Protocol-Version',
        reason: `must be one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
      },
    ],
  );
}
