import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Database } from '@directory/database';
import type { Directory } from '@directory/directory';
import { registerRateLimit } from '@directory/rate-limit';
import {
  genericProblem,
  installErrorHandling,
  loggerOptions,
  registerAuth,
  requestIdOptions,
  requireApiKey,
  sendProblem,
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

export type AppOptions = {
  /** pino level, or false for no logs. */
  logLevel?: string | false;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: { write: (line: string) => void };
};

// Long enough for a URL-encoded 2048-character profile URL (every character may take 3 bytes encoded).
const MAX_PARAM_LENGTH = 8192;

/** Builds the API (not listening): external plugins → app plugins → routes, as in fastify/demo. */
export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const level = options.logLevel ?? 'info';
  const logger: FastifyServerOptions['logger'] =
    level === false
      ? false
      : { ...loggerOptions(level), ...(options.logStream ? { stream: options.logStream } : {}) };
  const app = Fastify({
    logger,
    ...requestIdOptions,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // One access-log line per request (below) instead of Fastify's two.
    disableRequestLogging: true,
    // Router errors (an undecodable URL) bypass the error handler: answer them with a problem too.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'request rejected by the router');
      void sendProblem(reply, genericProblem(error.statusCode ?? 400));
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, { notFoundDetail: 'There is no such resource; see /openapi.json for the routes.' });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  });

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
