import type { estypes } from '@elastic/elasticsearch';

/**
 * The index holds exactly what `toSearchDocument` produces: the public record (stored, not indexed) and
 * the few search-only fields the queries need. `dynamic: strict` makes any other key a hard error, so an
 * internal field can never slip into the index by accident. Core features only (standard analyzer,
 * keyword, boolean), so this runs unchanged on the minimal distribution used in tests.
 */
export const DOCTORS_MAPPING: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  properties: {
    served: { type: 'boolean' },
    placeId: { type: 'keyword' },
    doctor: { type: 'object', enabled: false },
    country: { type: 'keyword' },
    citySlug: { type: 'keyword' },
    profileSlug: { type: 'keyword' },
    whatsappEligible: { type: 'boolean' },
    verified: { type: 'boolean' },
    sortName: { type: 'keyword' },
    searchText: { type: 'text', analyzer: 'standard' },
  },
};

export const DOCTORS_SETTINGS: estypes.IndicesIndexSettings = {
  number_of_shards: 1,
  number_of_replicas: 0,
};
