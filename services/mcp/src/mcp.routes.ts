import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { datasetOf, type Datasets } from '@directory/search';
import { ProblemError } from '@directory/http-server';
import { CORS_PREFLIGHT_HEADERS, rejectUnsupportedProtocolVersion } from './transport-guard.plugin.js';
import { createToolServer } from './tools/tool-server.js';

export const MCP_PATH = '/mcp';

// One JSON-RPC message of a few small tools: 64 KiB leaves ample room for 2048-character cursors and
// URLs, and bounds what an authenticated client can make us parse.
export const MAX_BODY_BYTES = 64 * 1024;

// The only request headers the SDK transport reads. Nothing else is passed on, so the client's key
// (Authorization / X-API-Key) never reaches the SDK or anything behind it.
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'last-event-id'] as const;

/** POST /mcp: one Streamable HTTP exchange, stateless (a fresh server and transport per request). */
export function mcpRoute(app: FastifyInstance, options: { datasets: Datasets }, done: () => void): void {
  app.post(MCP_PATH, { bodyLimit: MAX_BODY_BYTES, preValidation: rejectBatch }, async (request, reply) => {
    rejectUnsupportedProtocolVersion(request);
    // The tools read the dataset of the key's mode: a sandbox key's tools see sandbox records only.
    const server = createToolServer(datasetOf(options.datasets, request), request.log);
    // JSON responses rather than SSE: the tools answer at once, and the reply then goes through
    // Fastify like any other (rate-limit headers, request id, access log).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
      const body = await response.text();
      reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return reply.send(body === '' ? undefined : body);
    } finally {
      await server.close();
    }
  });
  done();
}

/**
 * One message per POST. A JSON-RPC batch would run many tools for one unit of the key's quota; the
 * current MCP revision (2025-06-18) removed batching, so a batch is refused whole (400, before the
 * quota is counted and before any tool runs) whatever protocol version the client names.
 */
function rejectBatch(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  if (!Array.isArray(request.body)) {
    done();
    return;
  }
  done(
    new ProblemError(
      'batchNotSupported',
      'JSON-RPC batches are not supported: send one JSON-RPC message per POST request.',
    ),
  );
}

/**
 * GET (server-sent event stream) and DELETE (session end) need sessions; this server has none.
 * OPTIONS answers CORS preflights (the Origin was checked by the transport guard).
 */
export function unsupportedMethodsRoute(app: FastifyInstance, _options: unknown, done: () => void): void {
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    handler: async (_request, reply) => {
      reply.header('allow', 'POST');
      throw new ProblemError(
        'methodNotAllowed',
        'This MCP server is stateless: send JSON-RPC messages with POST; there is no event stream or session.',
      );
    },
  });
  app.options(MCP_PATH, async (_request, reply) =>
    reply.code(204).header('allow', 'POST').headers(CORS_PREFLIGHT_HEADERS).send(),
  );
  done();
}

export function toWebRequest(request: Pick<FastifyRequest, 'headers' | 'method'>): Request {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // The body is already parsed (and size-limited) by Fastify; the transport gets it as parsedBody.
  return new Request(`http://mcp.local${MCP_PATH}`, { method: request.method, headers });
}
