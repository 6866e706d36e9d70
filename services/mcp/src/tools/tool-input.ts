import { z } from 'zod';

/**
 * The input schema handed to the SDK for a tool: it advertises `schema`'s JSON Schema in tools/list
 * (closed: no other arguments), but lets every object through to the handler. Arguments are then
 * validated by the same domain rules as the HTTP API, so a tool error carries the API's reasons, names
 * unknown arguments, and treats null as absent; the SDK's own validation would do none of that.
 */
export function advertisedInputSchema(schema: z.ZodObject) {
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' });
  // zod copies a schema's metadata into its JSON Schema, so this is what tools/list shows.
  return z.looseObject({}).meta({ ...jsonSchema, additionalProperties: false });
}

export type ToolArguments = Record<string, unknown>;
