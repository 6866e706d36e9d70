// The FHIR R4 directory: the pure mapping, declarations and translation (services/api serves them).
export * from './fhir-resources.js';
export { fhirIdOf, placeIdOf, FHIR_ID_MAX_LENGTH, FHIR_ID_REASON } from './resource-ids.js';
export type { ServedRecord } from './served-record.js';
export {
  PLAN_NET,
  TIME_ZONE_EXTENSION,
  LANGUAGE_SYSTEM,
  URI_SYSTEM,
  hoursOfOperationOf,
  referenceTo,
  resourceOf,
  toHealthcareService,
  toLocation,
  toOrganization,
  type MappingOptions,
} from './record-resources.js';
export {
  SPECIALTY_RESOURCE_ID,
  specialtyCodeSystem,
  specialtyCodeSystemUrl,
  specialtyValueSet,
  specialtyValueSetUrl,
  type CodeSystemResource,
  type ValueSetResource,
} from './specialty-codes.js';
export {
  SPECIALTY_CONCEPT_MAP_ID,
  SPECIALTY_TO_SNOMED,
  specialtyConceptMap,
  type ConceptMapResource,
} from './specialty-concept-map.js';
export { SUBSETTED, parseElements, subsetOf, type SubsettedResource } from './elements.js';
export {
  ALL_TYPES,
  COUNT_DEFAULT,
  HISTORY_PARAMETERS,
  ID_PARAMETERS,
  INCLUDES,
  INTERACTIONS,
  RESULT_PARAMETERS,
  RESULT_PARAMETERS_DOCUMENTATION,
  SEARCH_PARAMETERS,
  SORT_KEYS,
  includeName,
  searchParametersOf,
  type IncludeDeclaration,
  type SearchParameterDeclaration,
  type SearchParameterName,
} from './search-declarations.js';
export {
  translateSearch,
  type FhirParameters,
  type FhirQuery,
  type ResultParameters,
  type TranslatedSearch,
} from './search-translation.js';
export { capabilityStatement, type CapabilityStatement } from './capability.js';
export { operationOutcomeOf, type ProblemLike } from './operation-outcome.js';
export { searchBundle, searchUrl, type BundleEntry, type SearchBundle } from './search-bundle.js';
export {
  historyBundle,
  historyEntryOf,
  translateHistory,
  translateInstanceHistory,
  type HistoryBundle,
  type HistoryChange,
  type HistoryEntry,
  type HistoryRequest,
  type InstanceHistoryRequest,
} from './history.js';
export {
  BULK_DATA_CAPABILITY,
  BULK_EXPORT_OPERATION,
  BULK_EXPORT_OPERATION_DEFINITION,
  NDJSON_FORMAT,
  bulkExportManifest,
  ndjsonLinesOf,
  parseBulkExportKickOff,
  type BulkExportJobOutput,
  type BulkExportManifest,
  type BulkExportRequest,
} from './bulk-export.js';
