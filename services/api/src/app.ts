import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Directory } from '@directory/directory';
import {
  baseServerOptions,
  installErrorHandling,
  installRequestLogging,
  registerKeyedAccess,
  type KeyedAccessOptions,
  type LogOptions,
} from '@directory/http-kit';
import { serializerCompiler } from './serializer.js';
import { registerOpenApi } from './plugins/openapi.plugin.js';
import { doctorRoutes } from './routes/doctors/doctors.routes.js';
import { keyRoutes } from './routes/key/key.routes.js';

/**
 * Everything the API talks to, built by the caller (server.ts, or a test with its own DB/prefix/alias):
 * the keyed-access stores (redisPrefix is config REDIS_PREFIX) and the directory.
 */
export type AppDependencies = KeyedAccessOptions & { directory: Directory };

export type AppOptions = LogOptions;

// Long enough for a URL-encoded 2048-character profile URL (every character may take 3 bytes encoded).
const MAX_PARAM_LENGTH = 8192;

/** Builds the API (not listening): external plugins → app plugins → routes, as in fastify/demo. */
export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...baseServerOptions(options),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, {
    notFoundDetail: 'There is no such resource; see /openapi.json for the routes.',
  });
  installRequestLogging(app, options.httpMetrics);

  await registerOpenApi(app);

  await app.register(
    async (v1) => {
      await registerKeyedAccess(v1, deps);
      await v1.register(keyRoutes);
      await v1.register(doctorRoutes, { directory: deps.directory });
    },
    { prefix: '/api/v1' },
  );

  await app.ready();
  return app;
}
