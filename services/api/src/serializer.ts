import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/**
 * Response serializer compiled from the route's zod schemas: the schema becomes JSON Schema once, and
 * fast-json-stringify builds a writer that emits only the declared properties (objects are closed:
 * `additionalProperties: false`) and throws when a required one is missing. So a response can never
 * carry a field outside the allowlist, by construction, at a fraction of the cost of parsing every
 * record with zod on the way out (the records were built by the domain's allowlist when indexed).
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const jsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
    // Inline everything: component names are for the OpenAPI document, not for the writer.
    metadata: z.registry(),
    reused: 'inline',
    cycles: 'throw',
  });
  const write = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  return (data) => write(data);
};
