import type { FastifyRequest } from 'fastify';
import type { Database } from '@directory/database';
import type { ApiKeyMode } from '@directory/domain';
import { requireApiKey } from '@directory/keyed-access';
import type { Directory } from './directory.service.js';

/**
 * One dataset as the API and the MCP server read it: its directory (search, records, batches, cities,
 * specialties, suggestions: one Elasticsearch alias) and the database its changes feed is read from.
 */
export type Dataset = { directory: Directory; db: Database };

/**
 * The dataset each key mode reads: `live` keys the directory, `test` keys the sandbox (docs/api.md,
 * "Sandbox"). The two share no store, so a key can only ever reach its own mode's records.
 */
export type Datasets = Readonly<Record<ApiKeyMode, Dataset>>;

/** The dataset of the key the request authenticated with; only for routes behind the auth hook. */
export function datasetOf(datasets: Datasets, request: FastifyRequest): Dataset {
  return datasets[requireApiKey(request).mode];
}
