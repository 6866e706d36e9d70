import Fastify, { type FastifyInstance } from 'fastify';
import {
  baseServerOptions,
  installErrorHandling,
  installRequestLogging,
  type LogOptions,
} from '@directory/http-server';
import { registerKeyedAccess } from '@directory/keyed-access';
import { searchServiceProblemMappings, type SearchServiceDependencies } from '@directory/search';
import { mcpRoute, unsupportedMethodsRoute } from './mcp.routes.js';
import { registerTransportGuard } from './transport-guard.plugin.js';

/**
 * Everything the MCP server talks to, built by the caller (server.ts, or a test with its own deps).
 * redisPrefix is the API's, so a key has one quota on both.
 */
export type McpAppDependencies = SearchServiceDependencies & {
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[];
};

export type McpAppOptions = LogOptions;

/**
 * Builds the MCP server (not listening): the HTTP API's auth, rate limit, errors and logging, then the
 * Streamable HTTP endpoint. Order per request: Host/Origin → key (401) → quota (429) → MCP.
 */
export async function buildMcpApp(
  deps: McpAppDependencies,
  options: McpAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify(baseServerOptions(options, deps.trustedProxies));
  // JSON-RPC only: any other media type is a 415 problem before the SDK sees it.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, {
    notFoundDetail: 'There is no such resource; the MCP endpoint is POST /mcp.',
    mappings: searchServiceProblemMappings,
  });
  installRequestLogging(app, options.httpMetrics);
  registerTransportGuard(app, { allowedOrigins: deps.allowedOrigins, allowedHosts: deps.allowedHosts });

  await app.register(unsupportedMethodsRoute);
  await app.register(async (scope) => {
    registerKeyedAccess(scope, deps);
    await scope.register(mcpRoute, { datasets: deps.datasets });
  });

  await app.ready();
  return app;
}
