// `npm run mcp`: the MCP tool server. Config, logger, listen, graceful close; the app is in app.ts.
import { loadConfigOrExit } from '@directory/config';
import { runSearchService } from '@directory/search';
import { buildMcpApp } from './app.js';
import { MCP_PATH } from './mcp.routes.js';

/** `directory mcp`: serves until a stop signal (the graceful close is runSearchService's). */
export async function startMcpServer(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await runSearchService(
    config,
    { service: 'mcp', port: config.MCP_PORT, opsPort: config.MCP_OPS_PORT },
    (deps, logOptions) =>
      buildMcpApp(
        { ...deps, allowedOrigins: config.MCP_ALLOWED_ORIGINS, allowedHosts: config.MCP_ALLOWED_HOSTS },
        logOptions,
      ),
  );
  app.log.info(`MCP endpoint at http://${config.HOST}:${config.MCP_PORT}${MCP_PATH}`);
}
