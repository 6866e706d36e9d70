// Pure logic of `npm run check:clients` (check-clients.ts): which documented operation answered each
// recorded golden body, and how a generated client's reading of that body differs from the body itself.

export type GoldenResponse = {
  readonly request: string;
  readonly status: number;
  readonly contentType?: string;
  readonly body: unknown;
};

export type DocumentedOperation = {
  readonly operationId: string;
  readonly pathTemplate: string;
  /** Name of the `components.schemas` entry the 200 JSON answer refers to, if it is a `$ref`. */
  readonly successSchema: string | undefined;
  /** The document's own example of the 200 JSON answer, if it has one. */
  readonly successExample?: unknown;
};

export type GoldenReplay = {
  readonly operation: DocumentedOperation;
  readonly golden: GoldenResponse;
};

type OpenApiOperation = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> }>;
};

/** The document's GET operations, with the schema of their 200 JSON answer. */
export function documentedGetOperations(document: {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([pathTemplate, methods]) => {
    const get = methods.get;
    if (get?.operationId === undefined) return [];
    const success = get.responses?.['200']?.content?.['application/json'];
    const ref = success?.schema?.$ref;
    const successSchema = ref?.startsWith('#/components/schemas/')
      ? ref.slice('#/components/schemas/'.length)
      : undefined;
    return [{ operationId: get.operationId, pathTemplate, successSchema, successExample: success?.example }];
  });
}

/** Whether a request path (no query) fills a path template such as `/api/v1/doctors/{doctorId}`. */
export function pathMatchesTemplate(path: string, template: string): boolean {
  const pathSegments = path.split('/');
  const templateSegments = template.split('/');
  if (pathSegments.length !== templateSegments.length) return false;
  return templateSegments.every((segment, index) => {
    const actual = pathSegments[index] ?? '';
    return /^\{[^{}]+\}$/.test(segment) ? actual.length > 0 : actual === segment;
  });
}

/**
 * Every golden 200 JSON body beside the operation that answered it. A body no documented GET operation
 * matches is returned in `unmatched`: the check fails on it, since it proves nothing.
 */
export function replaysOf(
  goldens: readonly GoldenResponse[],
  operations: readonly DocumentedOperation[],
): { replays: GoldenReplay[]; unmatched: GoldenResponse[] } {
  const replays: GoldenReplay[] = [];
  const unmatched: GoldenResponse[] = [];
  for (const golden of goldens) {
    if (golden.status !== 200) continue;
    if (golden.contentType !== undefined && !golden.contentType.startsWith('application/json')) continue;
    const path = golden.request.split('?')[0] ?? '';
    const operation = operations.find((candidate) => pathMatchesTemplate(path, candidate.pathTemplate));
    if (operation === undefined) unmatched.push(golden);
    else replays.push({ operation, golden });
  }
  return { replays, unmatched };
}

/**
 * The document's 200 examples as replays too: they cover the operations no golden body comes from (the
 * goldens record search and single get). Path parameters are filled with `example`.
 */
export function exampleReplays(operations: readonly DocumentedOperation[]): GoldenReplay[] {
  return operations.flatMap((operation) =>
    operation.successExample === undefined
      ? []
      : [
          {
            operation,
            golden: {
              request: operation.pathTemplate.replace(/\{[^{}]*\}/g, 'example'),
              status: 200,
              contentType: 'application/json',
              body: operation.successExample,
            },
          },
        ],
  );
}

export type FieldDifference = {
  /** JSON path of the field, `$.doctors[0].distanceMeters`. */
  readonly path: string;
  /** lost: in the body, not in the client's value; added: the other way round; changed: both, different. */
  readonly kind: 'lost' | 'added' | 'changed';
  readonly detail: string;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const keyPath = (parent: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;

const shown = (value: unknown) => {
  if (value === undefined) return 'undefined';
  if (value instanceof Date) return `Date(${value.toISOString()})`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Two RFC 3339 date-times naming the same instant (`…T10:00:00.000Z` and `…T10:00:00Z`). */
export function sameInstant(original: unknown, parsed: unknown): boolean {
  return (
    typeof original === 'string' &&
    typeof parsed === 'string' &&
    ISO_DATE_TIME.test(original) &&
    ISO_DATE_TIME.test(parsed) &&
    Date.parse(original) === Date.parse(parsed)
  );
}

export type ComparisonOptions = {
  /** Date-times count as equal when they name the same instant (a client that writes its own format). */
  readonly dateTimesAsInstants?: boolean;
  /**
   * A null the body left out counts as absent: for a client whose models cannot tell an optional field
   * left out from one that is null, and write null for each (openapi-generator's Python models). A value
   * lost or changed, and a non-null field added, still count.
   */
  readonly absentAsNull?: boolean;
};

/**
 * How `parsed` (what a generated client made of a body) differs from `original` (the body). A key whose
 * value is `undefined` counts as absent: JSON has no undefined, and generated models write one for
 * every optional field the body leaves out. A renamed field shows as one `lost` and one `added`.
 */
export function fieldDifferences(
  original: unknown,
  parsed: unknown,
  options: ComparisonOptions = {},
  path = '$',
): FieldDifference[] {
  if (Array.isArray(original) && Array.isArray(parsed)) {
    const differences = original.flatMap((item, index) =>
      fieldDifferences(item, parsed[index], options, `${path}[${index}]`),
    );
    if (parsed.length > original.length)
      differences.push({ path, kind: 'changed', detail: `${parsed.length - original.length} extra item(s)` });
    return differences;
  }
  if (isRecord(original) && isRecord(parsed)) {
    const differences: FieldDifference[] = [];
    for (const [key, value] of Object.entries(original)) {
      if (value === undefined) continue;
      if (parsed[key] === undefined)
        differences.push({ path: keyPath(path, key), kind: 'lost', detail: `was ${shown(value)}` });
      else differences.push(...fieldDifferences(value, parsed[key], options, keyPath(path, key)));
    }
    for (const [key, value] of Object.entries(parsed))
      if (
        value !== undefined &&
        original[key] === undefined &&
        !(value === null && options.absentAsNull === true)
      )
        differences.push({ path: keyPath(path, key), kind: 'added', detail: `is ${shown(value)}` });
    return differences;
  }
  if (Object.is(original, parsed)) return [];
  if (options.dateTimesAsInstants === true && sameInstant(original, parsed)) return [];
  return [{ path, kind: 'changed', detail: `${shown(original)} became ${shown(parsed)}` }];
}
