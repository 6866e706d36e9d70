import { BULK_DATA_CAPABILITY, BULK_EXPORT_OPERATION } from './bulk-export.js';
import { DIRECTORY_RESOURCE_TYPES } from './fhir-resources.js';
import {
  HISTORY_PARAMETERS,
  INCLUDES,
  INTERACTIONS,
  RESULT_PARAMETERS_DOCUMENTATION,
  includeName,
  searchParametersOf,
  type SearchParameterDeclaration,
} from './search-declarations.js';

/**
 * The CapabilityStatement of /fhir/R4, built from the declaration table (search-declarations.ts) and
 * nothing else: what it lists is what the routes serve.
 */

export type CapabilityOptions = {
  /** The FHIR base the server answers at, e.g. https://api.example.com/fhir/R4. */
  baseUrl: string;
  /** The API's release (the OpenAPI document's version). */
  softwareVersion: string;
  /** When the statement was made: the server's start. */
  date: string;
};

const VREAD_DOCUMENTATION =
  'read and vread serve the current version only: a vread of any other version is a 404 OperationOutcome (history is not kept here).';

const HISTORY_TYPE_DOCUMENTATION = `The changes feed of one dataset as a history Bundle: PUT with the current resource for a record served (new or changed), DELETE without content for one that stopped being served. Versions other than the current are not retained: a record changed several times comes once, at its newest version. Paging follows Bundle.link next (the feed's cursor, in _cursor) and never skips a change; a page without entries has no next, ask its self link again later. Parameters: ${HISTORY_PARAMETERS.map(
  (parameter) => `${parameter.name}: ${parameter.documentation}`,
).join(' ')}`;

const HISTORY_INSTANCE_DOCUMENTATION =
  'The current version only (versions other than the current are not retained): one PUT entry, or a 404 OperationOutcome when no served record has the id. _since leaves it out when its lastUpdated is before the instant; _count is accepted.';

const INTERACTION_DOCUMENTATION: Partial<Record<(typeof INTERACTIONS)[number], string>> = {
  vread: VREAD_DOCUMENTATION,
  'history-type': HISTORY_TYPE_DOCUMENTATION,
  'history-instance': HISTORY_INSTANCE_DOCUMENTATION,
};

export function capabilityStatement(options: CapabilityOptions) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active' as const,
    date: options.date,
    kind: 'instance' as const,
    instantiates: [BULK_DATA_CAPABILITY],
    software: { name: 'Doctor directory API', version: options.softwareVersion },
    implementation: {
      description: 'Read-only FHIR R4 directory of published practices and clinics',
      url: options.baseUrl,
    },
    fhirVersion: '4.0.1' as const,
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server' as const,
        documentation: `Read-only. History is not kept: vread and the instance history serve the current version only. Every interaction but GET /metadata needs an API key (X-API-Key or Authorization: Bearer), with the quotas of /api/v1. Paging follows Bundle.link next; unknown search parameters are ignored unless Prefer: handling=strict. ${RESULT_PARAMETERS_DOCUMENTATION}`,
        security: {
          cors: false,
          description: 'An API key in X-API-Key or Authorization: Bearer, as for /api/v1.',
        },
        resource: DIRECTORY_RESOURCE_TYPES.map((type) => ({
          type,
          interaction: INTERACTIONS.map((code) => ({
            code,
            ...(INTERACTION_DOCUMENTATION[code] === undefined
              ? {}
              : { documentation: INTERACTION_DOCUMENTATION[code] }),
          })),
          versioning: 'versioned' as const,
          readHistory: false,
          conditionalRead: 'not-match' as const,
          searchInclude: INCLUDES.filter((include) => include.source === type).map(includeName),
          searchRevInclude: INCLUDES.filter((include) => include.target === type).map(includeName),
          searchParam: searchParametersOf(type).map(searchParamEntry),
        })),
        operation: [BULK_EXPORT_OPERATION],
      },
    ],
  };
}

export type CapabilityStatement = ReturnType<typeof capabilityStatement>;

function searchParamEntry(declaration: SearchParameterDeclaration) {
  const details = [
    declaration.modifiers === undefined ? '' : ` Modifiers: ${declaration.modifiers.join(', ')}.`,
    declaration.prefixes === undefined ? '' : ` Prefixes: ${declaration.prefixes.join(', ')}.`,
  ].join('');
  return {
    name: declaration.name,
    ...(declaration.definition === undefined ? {} : { definition: declaration.definition }),
    type: declaration.type,
    documentation: `${declaration.documentation}${details}`,
  };
}
