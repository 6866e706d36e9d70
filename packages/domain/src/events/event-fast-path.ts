import { Ajv } from 'ajv';
import { z } from 'zod';

/**
 * A compiled validator that accepts the common valid event without zod (zod's parse is most of the CPU
 * of validating an event, and every event is validated on both sides of the queue; `bench:validator`). The JSON Schema is derived from the zod schema, so the two cannot
 * drift apart unnoticed, and a property test holds their results equal. It only ever says "accepted,
 * and here is exactly what zod would have returned" or "not sure": every rejection (and anything odd)
 * goes through zod, so the reasons dead letters keep stay zod's.
 */
export type EventFastPath = (raw: unknown) => unknown;

/** A zod object per event type, each with a literal `type` (the options of a discriminated union). */
type EventOption = z.ZodObject<{ type: z.ZodLiteral<string> }>;

/** What a refinement the JSON Schema cannot read means, in JSON Schema words, keyed by the refined schema. */
export type Refinements = ReadonlyMap<object, Record<string, unknown>>;

/** The part of JSON Schema the zod schema produces here: the copier reads it, Ajv compiles it. */
type JsonSchemaNode = {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
  enum?: unknown[];
  const?: unknown;
};

/**
 * Builds a copy of an accepted value as zod's parse would: fresh objects and arrays, an object's declared
 * keys in declaration order and then its unknown keys in input order. `undefined` means "not sure".
 */
type Copier = (value: unknown) => unknown;

/**
 * Compiled once (lazily, by the caller): each option's JSON Schema compiled by Ajv, and its copier.
 * Compiling at run time rather than generating code at build time keeps the zod schema the only source
 * (no generated file to keep fresh); it costs about 0.2 s of CPU once per process that validates events.
 */
export function compileEventFastPath(
  options: ReadonlyArray<EventOption>,
  refinements: Refinements,
): EventFastPath {
  // Lengths in code points (a surrogate pair once, a lone surrogate once) as zod's `.max()` counts them,
  // Ajv's default. Patterns without the `u` flag, as zod's regexes are. Formats are left to the patterns
  // zod emits beside them (its own date-time regex), so Ajv's formats play no part.
  const ajv = new Ajv({ strict: true, strictTypes: false, unicodeRegExp: false, validateFormats: false });
  const byType = new Map<string, { validate: (value: unknown) => boolean; copy: Copier }>();
  for (const option of options) {
    const schema = jsonSchemaOf(option, refinements);
    const copy = copierOf(schema);
    if (copy === null) throw new Error('an event schema must be an object');
    byType.set(option.shape.type.value, { validate: ajv.compile(withNullableTypes(schema)), copy });
  }
  return (raw) => {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const type = (raw as { type?: unknown }).type;
    const compiled = typeof type === 'string' ? byType.get(type) : undefined;
    if (compiled === undefined || !compiled.validate(raw)) return undefined;
    return compiled.copy(raw);
  };
}

function jsonSchemaOf(option: z.ZodType, refinements: Refinements): JsonSchemaNode {
  const schema = z.toJSONSchema(option, {
    io: 'input',
    target: 'draft-07',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def;
      const refinement = refinements.get(zodSchema);
      if (refinement !== undefined) Object.assign(jsonSchema, refinement);
      else if ((def.checks ?? []).some((check) => check._zod.def.check === 'custom'))
        throw new Error('the event fast path cannot express a refinement it was not told about');
      // A stripping object (zod drops its unknown keys): the fast path takes only inputs without any.
      if (def.type === 'object' && def.catchall === undefined) jsonSchema.additionalProperties = false;
    },
  }) as JsonSchemaNode & { $schema?: string };
  delete schema.$schema;
  return schema;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function copierOf(node: JsonSchemaNode): Copier | null {
  if (node.$ref !== undefined || node.oneOf !== undefined || node.allOf !== undefined)
    throw new Error('the event fast path cannot copy $ref, oneOf or allOf');
  if (node.anyOf !== undefined) return anyOfCopier(node.anyOf);
  if (node.type === 'array') return arrayCopier(copierOf(node.items ?? {}));
  if (node.type === 'object') {
    if (node.properties !== undefined) return objectCopier(node.properties, node.additionalProperties);
    return recordCopier(node.additionalProperties);
  }
  return null; // a primitive: zod returns it as it came
}

// `X or null` and the like: the branches differ in type, and at most one of them is a container.
function anyOfCopier(branches: ReadonlyArray<JsonSchemaNode>): Copier | null {
  const containers = branches.map(copierOf).filter((copier) => copier !== null);
  if (containers.length > 1) throw new Error('the event fast path cannot tell anyOf containers apart');
  const container = containers[0];
  if (container === undefined) return null;
  return (value) => (typeof value === 'object' && value !== null ? container(value) : value);
}

function arrayCopier(item: Copier | null): Copier {
  return (value) => {
    const items = value as unknown[];
    if (item === null) return items.slice();
    const copy: unknown[] = [];
    for (const element of items) {
      const copied = item(element);
      if (copied === undefined) return undefined;
      copy.push(copied);
    }
    return copy;
  };
}

function objectCopier(
  properties: Record<string, JsonSchemaNode>,
  additional: JsonSchemaNode['additionalProperties'],
): Copier {
  const keys = Object.keys(properties);
  const copiers = keys.map((key) => copierOf(properties[key] as JsonSchemaNode));
  const declared = new Set(keys);
  const keepsUnknown = additional !== false;
  if (keepsUnknown && (typeof additional !== 'object' || Object.keys(additional).length > 0))
    throw new Error('the event fast path copies only objects that keep unknown keys as they are');
  return (value) => {
    if (!isPlainObject(value)) return undefined;
    const copy: Record<string, unknown> = {};
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const field = value[key];
      if (field === undefined) {
        if (key in value) copy[key] = undefined;
        continue;
      }
      const copier = copiers[index];
      const copied = copier ? copier(field) : field;
      if (copied === undefined) return undefined;
      copy[key] = copied;
    }
    if (keepsUnknown) {
      for (const key in value) {
        if (declared.has(key)) continue;
        // zod skips it (assigning it would replace the copy's prototype): leave that case to zod.
        if (key === '__proto__') return undefined;
        copy[key] = value[key];
      }
    }
    return copy;
  };
}

function recordCopier(additional: JsonSchemaNode['additionalProperties']): Copier {
  if (typeof additional !== 'object') throw new Error('the event fast path copies only typed records');
  const item = copierOf(additional);
  return (value) => {
    // zod reads a record's keys with Reflect.ownKeys (symbols too) and skips __proto__: leave both to zod.
    if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return undefined;
    const copy: Record<string, unknown> = {};
    for (const key in value) {
      if (key === '__proto__') return undefined;
      const copied = item ? item(value[key]) : value[key];
      if (copied === undefined) return undefined;
      copy[key] = copied;
    }
    return copy;
  };
}

// Keywords that say nothing about a value of another type (so nothing about null), and `enum`.
const TYPE_SPECIFIC_KEYWORDS = new Set([
  ...['type', 'enum', 'maxLength', 'minLength', 'pattern', 'format', 'minimum', 'maximum'],
  ...['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'items', 'maxItems', 'minItems'],
  ...['properties', 'required', 'additionalProperties', 'propertyNames', 'maxProperties', 'minProperties'],
]);

/**
 * `anyOf: [{ type: X, … }, { type: "null" }]` (zod's nullable) as `type: [X, "null"]`: the same values
 * (X's type-specific keywords ignore a null; an `enum` gets null added), but Ajv checks a null without
 * failing a branch and building its error.
 */
function withNullableTypes(node: JsonSchemaNode): JsonSchemaNode {
  const copy: JsonSchemaNode = { ...node };
  if (node.properties !== undefined)
    copy.properties = Object.fromEntries(
      Object.entries(node.properties).map(([key, property]) => [key, withNullableTypes(property)]),
    );
  if (typeof node.additionalProperties === 'object')
    copy.additionalProperties = withNullableTypes(node.additionalProperties);
  if (node.items !== undefined) copy.items = withNullableTypes(node.items);
  if (node.anyOf === undefined) return copy;
  const branches = node.anyOf.map(withNullableTypes);
  const [first, second] = branches;
  if (branches.length !== 2 || typeof first?.type !== 'string' || first.type === 'null') return copy;
  if (second === undefined || Object.keys(second).length !== 1 || second.type !== 'null') return copy;
  if (!Object.keys(first).every((keyword) => TYPE_SPECIFIC_KEYWORDS.has(keyword))) return copy;
  delete copy.anyOf;
  const merged: JsonSchemaNode = { ...copy, ...first, type: [first.type, 'null'] };
  // `enum` holds for every value, null included.
  if (first.enum !== undefined) merged.enum = [...first.enum, null];
  return merged;
}
