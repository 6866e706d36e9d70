import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * The allowlist writer: a JSON writer compiled from a zod schema. The schema becomes JSON Schema once,
 * and fast-json-stringify builds a writer that emits only the declared properties and throws when a
 * required one is missing. So a body written with it can never carry a field outside the allowlist, by
 * construction, whatever the object handed to it holds (a stored document with a field it should not
 * have). The API writes its responses with it, and webhooks their bodies.
 */
export function writerFor(schema: z.ZodType): (data: unknown) => string {
  const jsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
    // Inline everything: component names are for the OpenAPI document, not for the writer.
    metadata: z.registry(),
    reused: 'inline',
    cycles: 'throw',
  });
  const write = fastJson(writerSchema(jsonSchema) as Parameters<typeof fastJson>[0]);
  return (data) => write(data);
}

type JsonSchemaNode = { [key: string]: unknown };

/**
 * The schema the writer is built from:
 * - every object closed (`additionalProperties: false` unless it maps keys to values, like
 *   `workingHours`), so nothing undeclared is written even where the published schema is open;
 * - `anyOf: [X, { type: 'null' }]` (zod's nullable object) as X with `type: [X.type, 'null']`.
 *   fast-json-stringify picks an `anyOf` branch by validating the value against each branch at run
 *   time, which cost a feed page of nullable records several times its plain serialization; a type
 *   list is one `typeof` check.
 */
export function writerSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(writerSchema);
  if (node === null || typeof node !== 'object') return node;
  const rewritten: JsonSchemaNode = Object.fromEntries(
    Object.entries(node as JsonSchemaNode).map(([key, value]) => [key, writerSchema(value)]),
  );
  if (rewritten.type === 'object' && rewritten.properties !== undefined) {
    rewritten.additionalProperties = false;
  }
  const nonNull = nullableBranch(rewritten.anyOf);
  if (nonNull === undefined) return rewritten;
  const { anyOf: _branches, ...rest } = rewritten;
  return { ...rest, ...nonNull, type: [nonNull.type, 'null'] };
}

/** The other branch of a two-branch `anyOf` whose one branch is exactly `{ type: 'null' }`. */
function nullableBranch(anyOf: unknown): JsonSchemaNode | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const branches = anyOf as JsonSchemaNode[];
  const nullIndex = branches.findIndex(
    (branch) => branch.type === 'null' && Object.keys(branch).length === 1,
  );
  if (nullIndex === -1) return undefined;
  const other = branches[1 - nullIndex];
  return other !== undefined && typeof other.type === 'string' ? other : undefined;
}
