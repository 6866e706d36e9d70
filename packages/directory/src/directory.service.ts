import { errors as esErrors, type Client } from '@elastic/elasticsearch';
import {
  PLACE_ID_PATTERN,
  buildGetByProfileQuery,
  buildSearchRequest,
  decodeCursor,
  filtersOf,
  parseProfileUrl,
  toDoctorPage,
  type Doctor,
  type DoctorPage,
  type SearchHitSource,
  type SearchParams,
} from '@directory/domain';

/** SPEC §8: a doctorId (a place id or a whole profile URL) is at most 2048 characters. */
export const MAX_DOCTOR_ID_LENGTH = 2048;

export type DirectoryOptions = {
  client: Client;
  /** The alias readers use (config ELASTICSEARCH_INDEX); never a concrete index. */
  alias: string;
  siteOrigin: string;
  cursorSecret: string;
};

export type GetDoctorResult =
  { status: 'found'; doctor: Doctor } | { status: 'invalid'; reason: string } | { status: 'not-found' };

export type Directory = {
  /** One page of served records in (folded name, id) order. Throws InvalidCursorError, SearchUnavailableError. */
  searchDoctors(params: SearchParams): Promise<DoctorPage>;
  /** One served record by place id or canonical profile URL. Throws SearchUnavailableError. */
  getDoctor(doctorId: string): Promise<GetDoctorResult>;
};

/** Elasticsearch could not answer (down, slow, overloaded): a 503 for the client, details only in logs. */
export class SearchUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the search service is temporarily unavailable', { cause });
    this.name = 'SearchUnavailableError';
  }
}

/** A cursor the caller cannot use with these filters (tampered, foreign, malformed, other filters). */
export class InvalidCursorError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidCursorError';
    this.reason = reason;
  }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// Nothing in the project collects traces: skip the client's per-request (no-op) OpenTelemetry spans,
// measurable CPU on the API's hot path.
const REQUEST_OPTIONS = { openTelemetry: { enabled: false } };

export const DOCTOR_ID_REASON =
  'must be a doctor id from a search response (1-128 characters A-Z a-z 0-9 _ -) or a complete profile URL of this website, URL-encoded';

/**
 * THE query service: one implementation behind every transport (HTTP API, MCP). It only reads the
 * alias; every query filters `served: true`, so tombstones never come back.
 */
export function createDirectory(options: DirectoryOptions): Directory {
  const { client, alias, siteOrigin, cursorSecret } = options;

  async function searchSources(body: object): Promise<Array<{ _source?: SearchHitSource }>> {
    try {
      // A shard that could not answer (a node lost mid-request) fails the search rather than silently
      // shortening a page or turning a served record into a 404.
      const response = await client.search<SearchHitSource>(
        { index: alias, allow_partial_search_results: false, ...body },
        REQUEST_OPTIONS,
      );
      return response.hits.hits;
    } catch (error) {
      // No index behind the alias yet (a fresh deployment): nothing is published, not an outage.
      if (isIndexNotFound(error)) return [];
      throw new SearchUnavailableError(error);
    }
  }

  async function firstDoctor(body: object): Promise<GetDoctorResult> {
    const [hit] = await searchSources(body);
    const doctor = hit?._source?.doctor;
    return doctor === undefined ? { status: 'not-found' } : { status: 'found', doctor };
  }

  return {
    async searchDoctors(params) {
      const filters = filtersOf(params);
      let after: [string, string] | undefined;
      if (params.cursor !== undefined) {
        const decoded = decodeCursor(params.cursor, filters, cursorSecret);
        if (!decoded.ok) throw new InvalidCursorError(decoded.reason);
        after = decoded.value;
      }
      const hits = await searchSources(buildSearchRequest(filters, params.limit, after));
      return toDoctorPage(hits, params.limit, filters, cursorSecret);
    },

    async getDoctor(doctorId) {
      if (doctorId.length > MAX_DOCTOR_ID_LENGTH) {
        return { status: 'invalid', reason: `must be at most ${MAX_DOCTOR_ID_LENGTH} characters` };
      }
      if (SCHEME.test(doctorId)) {
        // Parse, never fetch: the URL is only ever taken apart as a string.
        const parsed = parseProfileUrl(doctorId, siteOrigin);
        if (!parsed.ok) return { status: 'invalid', reason: parsed.reason };
        const { country, citySlug, profileSlug } = parsed.value;
        return firstDoctor(buildGetByProfileQuery({ country, citySlug, profileSlug }));
      }
      if (!PLACE_ID_PATTERN.test(doctorId)) return { status: 'invalid', reason: DOCTOR_ID_REASON };
      // A search rather than GET: it works whatever the alias points at and applies the served filter.
      return firstDoctor({
        size: 1,
        query: { bool: { filter: [{ ids: { values: [doctorId] } }, { term: { served: true } }] } },
        _source: ['doctor'],
        track_total_hits: false,
      });
    },
  };
}

function isIndexNotFound(error: unknown): boolean {
  return (
    error instanceof esErrors.ResponseError &&
    error.statusCode === 404 &&
    (error.body as { error?: { type?: string } } | undefined)?.error?.type === 'index_not_found_exception'
  );
}
