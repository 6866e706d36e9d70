import type { Client } from '@elastic/elasticsearch';
import { DOCTORS_MAPPING, DOCTORS_SETTINGS } from './mapping.js';

/**
 * How an index is spread over the cluster (ELASTICSEARCH_SHARDS, ELASTICSEARCH_REPLICAS): with one replica
 * on a two-node cluster every document lives on both nodes, so either can be lost without losing a read
 * or a write. Applies to indices created from now on (reindex to reshape an existing one).
 */
export type IndexShape = { shards: number; replicas: number };

export function indexShapeSettings(shape: IndexShape): {
  number_of_shards: number;
  number_of_replicas: number;
} {
  return { number_of_shards: shape.shards, number_of_replicas: shape.replicas };
}

/** Concrete indices are `<alias>__<timestamp>`; readers and writers only ever name the alias. */
export function concreteIndexName(alias: string, now: Date): string {
  return `${alias}__${now.toISOString().replace(/[-:.]/g, '').toLowerCase()}`;
}

export async function createDoctorsIndex(
  client: Client,
  index: string,
  settings: Record<string, unknown> = {},
  aliases: Record<string, Record<string, never>> = {},
): Promise<void> {
  await client.indices.create({
    index,
    settings: { ...DOCTORS_SETTINGS, ...settings },
    mappings: DOCTORS_MAPPING,
    aliases,
  });
}

/** The indices the alias points at (normally exactly one). */
export async function indicesBehindAlias(client: Client, alias: string): Promise<string[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists) return [];
  const response = await client.indices.getAlias({ name: alias });
  return Object.keys(response);
}

/**
 * Creates the first concrete index behind the alias if the alias does not exist yet. The first index has
 * a fixed name, so processes starting together race on index creation (one wins, the rest see 400
 * resource_already_exists) instead of each attaching an index of its own to the alias.
 */
export async function ensureDoctorsIndex(client: Client, alias: string, shape?: IndexShape): Promise<string> {
  const current = await indicesBehindAlias(client, alias);
  if (current[0]) return current[0];
  const index = `${alias}__initial`;
  try {
    await createDoctorsIndex(client, index, shape ? indexShapeSettings(shape) : {}, { [alias]: {} });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return index;
}

function isAlreadyExists(error: unknown): boolean {
  const body = (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body;
  return body?.error?.type === 'resource_already_exists_exception';
}
