import type { FastifyReply, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import { writerFor, writerSchema } from '@directory/domain';

/**
 * Response serializer compiled from the route's zod schemas by the domain's allowlist writer
 * (`writerFor`: only the declared properties are written, a missing required one throws). So a response
 * can never carry a field outside the allowlist, by construction, at a fraction of the cost of parsing
 * every record with zod on the way out (the records were built by the domain's allowlist when indexed).
 * The OpenAPI document publishes the same response schemas open (clients must ignore fields they do not
 * know); the writer closes them all.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  // A union documents the answers a route can give (`fields`, batch get): its first option is
  // the usual one, and the handler picks the writer of another with `reply.serializer(writerFor(…))`.
  writerFor(schema instanceof z.ZodUnion ? (schema.options[0] as z.ZodType) : schema);

// The routes and specs take the writer from here, beside the compiler that uses it.
export { writerFor, writerSchema };

/** Answers this reply with another option of its route's union, as JSON (like the default writer). */
export function answerWith(reply: FastifyReply, write: (data: unknown) => string): void {
  reply.serializer(write).type('application/json; charset=utf-8');
}
