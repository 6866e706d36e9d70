// `npm run api`: the public HTTP API. Config, logger, listen, graceful close; the app is in app.ts.
import { loadConfigOrExit } from '@directory/config';
import { runSearchService } from '@directory/search';
import { buildApp } from './app.js';

/** `directory api`: serves until a stop signal (the graceful close is runSearchService's). */
export async function startApiServer(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await runSearchService(
    config,
    { service: 'api', port: config.API_PORT, opsPort: config.API_OPS_PORT },
    (deps, logOptions) =>
      buildApp(
        {
          ...deps,
          cursorSecret: config.CURSOR_SECRET,
          siteOrigin: config.SITE_ORIGIN,
          exportLimits: {
            maxConcurrent: { live: config.EXPORTS_MAX_CONCURRENT, test: config.EXPORTS_MAX_CONCURRENT_TEST },
            maxPerAccount: config.EXPORTS_MAX_PER_ACCOUNT,
            maxDurationMs: config.EXPORTS_MAX_DURATION_MS,
          },
        },
        logOptions,
      ),
  );
  app.log.info(`API docs at http://${config.HOST}:${config.API_PORT}/docs`);
}
