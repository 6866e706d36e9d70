import type { estypes } from '@elastic/elasticsearch';
import { INDEX_SORT, SEARCH_DOCUMENT_MAPPING } from '@directory/domain';

/** The search document's mapping (declared next to the document in the domain), typed for the client. */
export const DOCTORS_MAPPING: estypes.MappingTypeMapping = SEARCH_DOCUMENT_MAPPING;

/**
 * `sort` is the domain's `INDEX_SORT`; an index made by an earlier release, without it, answers the same,
 * only slower, until `npm run reindex`.
 */
export const DOCTORS_SETTINGS: estypes.IndicesIndexSettings = {
  number_of_shards: 1,
  number_of_replicas: 0,
  sort: { field: [...INDEX_SORT.field], order: [...INDEX_SORT.order] },
};

/** The fields of `wanted` that `existing` lacks (by name: a field both have is left as the index has it). */
export function missingProperties<Property>(
  existing: Readonly<Record<string, unknown>>,
  wanted: Readonly<Record<string, Property>>,
): Record<string, Property> {
  return Object.fromEntries(Object.entries(wanted).filter(([field]) => !Object.hasOwn(existing, field)));
}
