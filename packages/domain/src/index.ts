// Public surface of the pure core: exactly what other packages use (specs inside import ../src directly).
export { foldText } from './shared/text.js';
export { normalizePhone } from './places/phone-number.js';
export { utf8Lines } from './shared/utf8-lines.js';
export { createLinePacer } from './shared/line-pacer.js';
export {
  escapeControlCharacters,
  escapeJsonControlCharacters,
  singleLineText,
} from './shared/display-text.js';
export { assertNever } from './shared/assert-never.js';
export {
  parsePlaceEvent,
  parsePlaceEventWithZod,
  compilePlaceEventFastPath,
  COUNTRY_CODES,
  LIVE_COUNTRY_CODES,
  SLUG_PATTERN,
  PLACE_ID_PATTERN,
  MAX_EVENT_LINE_CHARACTERS,
  placeEventSchema,
  type CountryCode,
  type Observed,
  type Publication,
  type PlaceEvent,
} from './events/events.js';
export {
  initialPlaceState,
  isServed,
  orderedStream,
  type StoredPlaceEvent,
  type PlaceState,
} from './events/place-state.js';
export { foldPlace } from './places/place-fold.js';
export {
  parseProfileUrl,
  profilePageKey,
  PAGE_LANGUAGES,
  type PageLanguage,
  type ProfileRef,
} from './places/profile-url.js';
export { parseDoctorId, MAX_DOCTOR_ID_LENGTH, type DoctorRef } from './places/doctor-id.js';
export { isAccountEmail, isPublicEmail, MAX_EMAIL_LENGTH } from './places/email-address.js';
export {
  parseRecordShape,
  recordShapeParamsSchema,
  shapeRecord,
  selectedDoctorSchema,
  RECORD_FIELD_NAMES,
  type FieldSelection,
  type RecordShape,
  type SelectedDoctor,
  type ShapedRecord,
} from './requests/record-shape.js';
export {
  parseDoctorIds,
  planBatch,
  toDoctorBatch,
  withSubstitutedEntries,
  withMergedIds,
  MAX_BATCH_IDS,
  MAX_IDS_LENGTH,
  IDS_DESCRIPTION,
  idsParameter,
  type BatchResponse,
  type DoctorBatch,
} from './search/doctor-batch.js';
export { doctorSchema, DOCTOR_KEYS, toDoctor, type Doctor } from './places/doctor.js';
export { writerFor, writerSchema } from './shared/allowlist-writer.js';
export { doctorExtrasSchema, DOCTOR_EXTRA_KEYS, type DoctorExtras } from './places/doctor-extras.js';
export { openingHoursSchema, type OpeningHours } from './opening-hours/opening-hours-schema.js';
export {
  toSearchDocument,
  exactNameOf,
  postalCodeKey,
  addressKey,
  SEARCH_DOCUMENT_MAPPING,
  INDEX_SORT,
  type SearchDocument,
  type Tombstone,
} from './search/search-document.js';
export { projectPlace, type PlaceProjection } from './search/place-projection.js';
export {
  storedMergeOf,
  resolveMerge,
  resolveMerges,
  type MergeForward,
  type MergeLink,
  type StoredMerge,
} from './places/merges.js';
export { specialtyCodeOf, SPECIALTY_CODES, type SpecialtyCode } from './places/specialty-vocabulary.js';
export {
  parseSpecialtiesParams,
  parseSpecialtiesToolInput,
  specialtiesParamsSchema,
  specialtiesToolInputSchema,
  specialtiesPageSchema,
  specialtyEntrySchema,
  specialtyVocabularyPage,
  buildSpecialtyCountsRequest,
  toSpecialtyCountsPage,
  type SpecialtiesParams,
  type SpecialtiesPage,
  type SpecialtyCountsAggregation,
} from './search/specialty-list.js';
export {
  COVERAGE_WINDOW_DAYS,
  buildDatasetCoverageRequest,
  coverageWindowStart,
  datasetCoverageSchema,
  datasetsPageSchema,
  datasetsParamsSchema,
  parseDatasetsParams,
  toDatasetsPage,
  type DatasetCoverage,
  type DatasetCoverageAggregation,
  type DatasetsPage,
  type DatasetsParams,
} from './search/dataset-coverage.js';
export { ok, fail, type Result } from './shared/result.js';
export {
  COUNTRY_QUERY_PATTERN,
  keyInQueryErrors,
  safeParameterName,
  type ParameterError,
} from './requests/query-parameters.js';
export {
  generateApiKey,
  isWellFormedApiKey,
  hashApiKey,
  apiKeyModeOf,
  containsApiKeyPrefix,
  isApiKeyMode,
  API_KEY_MODES,
  API_KEY_PREFIXES,
  API_KEY_RANDOM_BYTES,
  API_KEY_PATTERN,
  API_KEY_PREFIX_SOURCE,
  type ApiKeyMode,
} from './keys/api-key.js';
export {
  filterDescriptions,
  filtersOf,
  type InternalFilters,
  type SearchFilters,
} from './search/search-filters.js';
export {
  batchParamsSchema,
  parseBatchGetQuery,
  parseDoctorsQuery,
  parseSearchParams,
  parseSearchToolInput,
  RECORD_SHAPE_PARAMETERS,
  KNOWN_PARAMETERS,
  searchParamsSchema,
  searchToolInputSchema,
  type BatchGetQuery,
  type DoctorsQuery,
  type SearchParams,
  type SearchRequest,
} from './search/search-params.js';
export { encodeCursor, decodeCursor, type SortValues } from './search/cursor.js';
export {
  FACET_LIMIT_DEFAULT,
  FACET_LIMIT_MAX,
  FACET_NAMES,
  facetsSchema,
  facetValueSchema,
  toFacets,
  type FacetName,
  type FacetRequest,
  type FacetValue,
  type Facets,
  type FacetsResponse,
} from './search/facets.js';
export {
  FACET_VALUES_Q_MAX_LENGTH,
  buildFacetValuesRequest,
  cityFacetValues,
  facetNameSchema,
  facetValuesPageSchema,
  facetValuesParamsSchema,
  parseFacetValuesParams,
  toFacetValuesPage,
  type FacetValuesPage,
  type FacetValuesParams,
} from './search/facet-values.js';
export { CURSOR_MAX_LENGTH, LIMIT_MAX } from './requests/page-bounds.js';
export { GEO_RADIUS_DEFAULT_M } from './search/geo.js';
export {
  parseCitiesParams,
  buildCitiesRequest,
  buildCityCountsRequest,
  toCitiesPage,
  citiesParamsSchema,
  CITIES_LIMIT_MAX,
  CITIES_DEFAULT_LIMIT,
  type CitiesParams,
  type CitiesPage,
  type CitiesAggregation,
} from './search/city-list.js';
export {
  buildSearchRequest,
  buildFacetsRequest,
  buildGetByIdsQuery,
  buildGetByProfileQuery,
  buildGetByIdQuery,
  toDoctorPage,
  type SearchHitSource,
  type SearchHit,
  type SearchOrder,
  type SearchTotal,
} from './search/search-query.js';
export {
  SORT_ORDERS,
  TOTAL_EXACT_UP_TO,
  boundSortOrder,
  sortOrderOf,
  type SortOrder,
} from './search/search-order.js';
export { RELEVANCE_FIELDS, TYPO_FUZZINESS, relevanceTextQuery } from './search/search-relevance.js';
export {
  SUGGESTION_RADII_M,
  buildNearbyCitiesRequest,
  buildRadiusRingsRequest,
  buildSuggestionCountRequest,
  buildTermSuggestRequest,
  citySuggestion,
  correctedQuery,
  needsSuggestions,
  radiusSuggestion,
  type NearbyCitiesAggregation,
  type RadiusRingsAggregation,
  type TermSuggestResponse,
} from './search/search-suggestions.js';
export { cityNameGroupsOf, type CityNameGroup } from './search/place-names.js';
export {
  searchSuggestionSchema,
  searchSuggestionsSchema,
  type SearchSuggestion,
} from './search/search-suggestion.js';
export { indexedText, indexedWords, wordsOf } from './search/search-analysis.js';
export {
  doctorPageSchema,
  searchResultSchema,
  selectedDoctorPageSchema,
  type DoctorPage,
  type RecordPage,
  type SearchResult,
} from './search/doctor-page.js';
export {
  encodeChangesCursor,
  decodeChangesCursor,
  CHANGES_CURSOR_REASONS,
  FEED_START,
  feedFromFence,
  snapshotHorizon,
  snapshotStart,
  type FeedCursor,
  type FeedPosition,
  type SnapshotHorizon,
} from './changes/changes-cursor.js';
export {
  parseChangesParams,
  CHANGES_LIMIT_MAX,
  changesParamsSchema,
  type ChangesParams,
  type ChangesStart,
} from './changes/changes-params.js';
export { feedAfterSnapshot } from './changes/changes-cursor.js';
export { doctorDigest, documentDigest } from './search/place-digests.js';
export {
  EXPORT_PAGE_SIZE,
  EXPORT_RECORDS_PER_UNIT,
  EXPORT_RESUME_OTHER_MODE,
  decodeExportResumeToken,
  exportChangesCursor,
  exportPathSchema,
  exportQuerySchema,
  exportResumeToken,
  exportTrailerLine,
  exportUnitDue,
  exportUnits,
  parseExportParams,
  type ExportParams,
  type ExportTrailer,
} from './changes/export-params.js';
export {
  changesToRead,
  feedPartOf,
  toChangesPage,
  type FeedRead,
  type FeedRow,
  type ListedPlace,
  type ChangesPage,
  type ChangesPageOptions,
  type ChangeEntry,
} from './changes/changes-page.js';
export {
  KEY_EXPIRY_CHOICES,
  KEY_GRACE_CHOICES,
  KEY_USAGE_DAYS,
  expiryFor,
  graceEndFor,
  isKeyExpiryChoice,
  isKeyGraceChoice,
  keyEndsSoon,
  keyStateAt,
  keyWorksAt,
  nextUsageDayStart,
  successorExpiry,
  usageDay,
  usageTotals,
  usageWindow,
  type DailyUsage,
  type KeyExpiryChoice,
  type KeyGraceChoice,
  type KeyState,
} from './keys/key-lifecycle.js';
export {
  INSURANCE_SCHEMES,
  INSURANCE_CODES,
  LANGUAGE_CODES,
  insuranceCodesOf,
  patientAttributesOf,
  patientAttributesSchema,
  type InsuranceCode,
  type LanguageCode,
  type PatientAttributes,
} from './events/patient-attributes.js';
export {
  DEFAULT_SUGGEST_LANGUAGE,
  SUGGEST_DEFAULT_LIMIT,
  SUGGEST_LIMIT_MAX,
  SUGGEST_Q_MAX_LENGTH,
  buildSuggestDoctorsRequests,
  matchingSpecialtyCodes,
  parseSuggestParams,
  suggestPageSchema,
  suggestParamsSchema,
  citySuggestionSchema,
  doctorSuggestionSchema,
  specialtySuggestionSchema,
  suggestCities,
  toSuggestPage,
  type SuggestHitSource,
  type SuggestPage,
  type SuggestParams,
  type SuggestDoctorsRequestBody,
  type Suggestion,
} from './search/suggest.js';
export {
  buildCitySpellingsRequest,
  citySpellingsPage,
  cityTableOf,
  type CitySpelling,
  type CitySpellingsAggregation,
  type CityTable,
} from './search/city-table.js';
