import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireApiKey } from '@directory/keyed-access';
import { rejectQueryParameters } from '../query.js';
import { API_KEY_SECURITY, errorResponses, routeTags } from '../route-docs.js';

export const keySchema = z
  .strictObject({
    id: z.string().meta({ description: 'Key identifier' }),
    name: z.string().meta({ description: 'Name given at creation' }),
    prefix: z.string().meta({ description: 'Leading characters of the secret, to tell keys apart' }),
    creationTime: z.iso.datetime().meta({ description: 'When the key was created (UTC)' }),
  })
  .meta({ id: 'Key', description: 'Non-secret metadata of an API key; the secret itself is never returned' });

const keyResponseSchema = z.strictObject({ key: keySchema }).meta({ id: 'KeyResponse' });

export function keyRoutes(app: FastifyInstance, _options: unknown, done: (error?: Error) => void): void {
  app.get(
    '/key',
    {
      schema: {
        tags: routeTags('key'),
        security: API_KEY_SECURITY,
        operationId: 'getKey',
        summary: 'Validate the current API key',
        description: 'Returns the metadata of the key the request was made with.',
        response: { 200: keyResponseSchema, ...errorResponses([400, 401, 429, 503]) },
      },
    },
    (request, reply) => {
      rejectQueryParameters(request);
      const key = requireApiKey(request);
      return reply.send({
        key: { id: key.id, name: key.name, prefix: key.prefix, creationTime: key.creationTime.toISOString() },
      });
    },
  );
  done();
}
