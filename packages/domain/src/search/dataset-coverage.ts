import { z } from 'zod';
import { COUNTRY_CODES_TEXT } from '../requests/country-codes-text.js';
import { COUNTRY_CODES, type CountryCode } from '../events/events.js';
import { countryFromQuery, parseParameters, type ParameterError } from '../requests/query-parameters.js';
import type { Result } from '../shared/result.js';

/**
 * How fresh each dataset is (`GET /api/v1/datasets`, the `status` command and the worker's metric): per
 * dataset, its served records, when one of them was last observed by a crawl, and the share of them
 * observed within the last COVERAGE_WINDOW_DAYS days — the figure directory regulators ask for.
 *
 * One aggregation over the served records of the read alias: a terms bucket per dataset with the newest
 * `observedAt` and a filter of the records observed since the window's start. Counts come from the index
 * the API serves, so they are what a consumer can find, not what the store holds.
 */

export const COVERAGE_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;

export type DatasetsParams = { country?: CountryCode };

export type DatasetCoverage = {
  country: CountryCode;
  /** Served records of the dataset. */
  records: number;
  /** The newest `observedAt` among them (an instant), or null when none carries one. */
  lastObservedAt: string | null;
  /** Records observed at or after `windowStart`. */
  observedInWindow: number;
  /** observedInWindow ÷ records, 4 decimals (0 for an empty dataset is never listed: see toDatasetsPage). */
  coverage: number;
};

export type DatasetsPage = {
  /** The instant the window ends at: when the request was served. */
  asOf: string;
  windowDays: number;
  /** asOf minus windowDays days. */
  windowStart: string;
  datasets: DatasetCoverage[];
};

const COUNTRY_DESCRIPTION = `Optional dataset code, case-insensitive: ${COUNTRY_CODES_TEXT.accepted} (as in search). With it, only that dataset is listed; without it, every dataset with served records.`;

/** The query string of `GET /api/v1/datasets`. Use `parseDatasetsParams` for the full rules. */
export const datasetsParamsSchema = z.object({
  country: countryFromQuery.optional().describe(COUNTRY_DESCRIPTION),
});

/** Validates a parsed query string: the rules of every operation (unknown, repeated, keys in the URL). */
export function parseDatasetsParams(raw: Record<string, unknown>): Result<DatasetsParams, ParameterError[]> {
  return parseParameters(datasetsParamsSchema, raw, 'query');
}

// Response schemas are open objects: clients ignore fields they do not know (docs/api.md, Compatibility).
export const datasetCoverageSchema = z.looseObject({
  country: z.enum(COUNTRY_CODES).meta({ description: 'The dataset, as search’s `country` names it' }),
  records: z.number().int().min(1).meta({ description: 'Served records of the dataset' }),
  lastObservedAt: z.iso.datetime().nullable().meta({
    description: 'The newest `observedAt` of its records: when a crawl last saw one of them',
  }),
  observedInWindow: z.number().int().min(0).meta({
    description: 'Records whose `observedAt` is at or after `windowStart`',
  }),
  coverage: z
    .number()
    .min(0)
    .max(1)
    .meta({
      description: '`observedInWindow` ÷ `records`, four decimals',
      examples: [0.9731],
    }),
});

export const datasetsPageSchema = z.looseObject({
  asOf: z.iso.datetime().meta({ description: 'When the request was served: the end of the window' }),
  // A plain integer, not a literal: generated clients (Java) cannot build a constant numeric enum.
  windowDays: z
    .number()
    .int()
    .meta({
      description: `The window’s length in days (${COVERAGE_WINDOW_DAYS})`,
      examples: [COVERAGE_WINDOW_DAYS],
    }),
  windowStart: z.iso.datetime().meta({ description: '`asOf` minus `windowDays` days' }),
  datasets: z.array(datasetCoverageSchema).max(COUNTRY_CODES.length),
});

export type DatasetCoverageRequestBody = {
  size: 0;
  query: { bool: { filter: Array<Record<string, unknown>> } };
  aggs: {
    datasets: {
      terms: { field: 'country'; size: number; order: { _key: 'asc' } };
      aggs: {
        lastObserved: { max: { field: 'observedAt' } };
        inWindow: { filter: { range: { observedAt: { gte: string } } } };
      };
    };
  };
  track_total_hits: false;
};

/** The part of an aggregation response the page reads. */
export type DatasetCoverageAggregation = {
  datasets?: {
    buckets: ReadonlyArray<{
      key: unknown;
      doc_count: number;
      lastObserved?: { value: number | null; value_as_string?: string };
      inWindow?: { doc_count: number };
    }>;
  };
};

/** The start of the window that ends at `asOf`. */
export function coverageWindowStart(asOf: Date): Date {
  return new Date(asOf.getTime() - COVERAGE_WINDOW_DAYS * DAY_MS);
}

/** One aggregation over the served records (of one dataset, or of all). */
export function buildDatasetCoverageRequest(params: DatasetsParams, asOf: Date): DatasetCoverageRequestBody {
  const filter: Array<Record<string, unknown>> = [{ term: { served: true } }];
  if (params.country !== undefined) filter.push({ term: { country: params.country } });
  return {
    size: 0,
    // Served records only: tombstones stay in the index (see search-query.ts).
    query: { bool: { filter } },
    aggs: {
      datasets: {
        terms: { field: 'country', size: COUNTRY_CODES.length, order: { _key: 'asc' } },
        aggs: {
          lastObserved: { max: { field: 'observedAt' } },
          inWindow: { filter: { range: { observedAt: { gte: coverageWindowStart(asOf).toISOString() } } } },
        },
      },
    },
    track_total_hits: false,
  };
}

/** The page, datasets in code order; a dataset without served records is not listed. */
export function toDatasetsPage(
  aggregations: DatasetCoverageAggregation | undefined,
  asOf: Date,
): DatasetsPage {
  const datasets = (aggregations?.datasets?.buckets ?? []).flatMap((bucket): DatasetCoverage[] => {
    const country = COUNTRY_CODES.find((code) => code === bucket.key);
    if (country === undefined || bucket.doc_count === 0) return [];
    const observedInWindow = bucket.inWindow?.doc_count ?? 0;
    const newest = bucket.lastObserved?.value;
    return [
      {
        country,
        records: bucket.doc_count,
        lastObservedAt: typeof newest === 'number' ? new Date(newest).toISOString() : null,
        observedInWindow,
        coverage: Math.round((observedInWindow / bucket.doc_count) * 10_000) / 10_000,
      },
    ];
  });
  return {
    asOf: asOf.toISOString(),
    windowDays: COVERAGE_WINDOW_DAYS,
    windowStart: coverageWindowStart(asOf).toISOString(),
    datasets,
  };
}
