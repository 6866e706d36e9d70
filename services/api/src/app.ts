import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Database } from '@directory/database';
import type { Directory } from '@directory/directory';
import { registerRateLimit } from '@directory/rate-limit';
import {
  baseServerOptions,
  installErrorHandling,
  installRequestLogging,
  registerAuth,
  requireApiKey,
  type LogOptions,
} from '@directory/http-kit';
import { serializerCompiler } from './serializer.js';
import { registerOpenApi } from './plugins/openapi.plugin.js';
import { doctorRoutes } from './routes/doctors/doctors.routes.js';
import { keyRoutes } from './routes/key/key.routes.js';

/** Everything the API talks to, built by the caller (server.ts, or a test with its own DB/prefix/alias). */
export type AppDependencies = {
  db: Database;
  redis: Redis;
  /** Redis key prefix for the rate-limit counters (config REDIS_PREFIX). */
  redisPrefix: string;
  directory: Directory;
  rateLimit: { max: number; windowSeconds: number };
};

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
  installRequestLogging(app);

  await registerOpenApi(app);

  await app.register(
    async (v1) => {
      registerAuth(v1, { db: deps.db });
      await registerRateLimit(v1, {
        redis: deps.redis,
        prefix: deps.redisPrefix,
        max: deps.rateLimit.max,
        windowSeconds: deps.rateLimit.windowSeconds,
        keyOf: (request) => requireApiKey(request).id,
      });
      await v1.register(keyRoutes);
      await v1.register(doctorRoutes, { directory: deps.directory });
    },
    { prefix: '/api/v1' },
  );

  await app.ready();
  return app;
}
