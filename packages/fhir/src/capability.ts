import { DIRECTORY_RESOURCE_TYPES } from './fhir-resources.js';
import {
  INCLUDES,
  INTERACTIONS,
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

export function capabilityStatement(options: CapabilityOptions) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active' as const,
    date: options.date,
    kind: 'instance' as const,
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
        documentation:
          'Read-only. Every interaction but GET /metadata needs an API key (X-API-Key or Authorization: Bearer), with the quotas of /api/v1. Paging follows Bundle.link next; unknown search parameters are ignored unless Prefer: handling=strict.',
        security: {
          cors: false,
          description: 'An API key in X-API-Key or Authorization: Bearer, as for /api/v1.',
        },
        resource: DIRECTORY_RESOURCE_TYPES.map((type) => ({
          type,
          interaction: INTERACTIONS.map((code) => ({
            code,
            ...(code === 'vread' ? { documentation: VREAD_DOCUMENTATION } : {}),
          })),
          versioning: 'versioned' as const,
          readHistory: false,
          conditionalRead: 'not-supported' as const,
          searchInclude: INCLUDES.filter((include) => include.source === type).map(includeName),
          searchRevInclude: INCLUDES.filter((include) => include.target === type).map(includeName),
          searchParam: searchParametersOf(type).map(searchParamEntry),
        })),
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
