import type { Client } from '@elastic/elasticsearch';
import { DOCTORS_MAPPING, DOCTORS_SETTINGS, missingProperties } from './mapping.js';

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

/** Every concrete index of the alias (`<alias>__…`), behind it or not (a reindex's new or old one). */
export async function concreteIndices(client: Client, alias: string): Promise<string[]> {
  const response = await client.cat.indices({ index: `${alias}__*`, format: 'json', h: 'index' });
  return response.map((row) => row.index ?? '').filter((index) => index !== '');
}

/**
 * Creates the first concrete index behind the alias if the alias does not exist yet. The first index has
 * a fixed name, so processes starting together race on index creation (one wins, the rest see 400
 * resource_already_exists) instead of each attaching an index of its own to the alias. An index made by
 * an earlier release gets the fields this one added: without them its strict mapping would refuse every
 * document the worker writes until a reindex. Only the missing fields are put: a field's parameters
 * cannot change in place (Elasticsearch refuses the whole mapping), so a field this release indexes
 * differently keeps the old way in that index until the next reindex builds a new one.
 */
export async function ensureDoctorsIndex(client: Client, alias: string, shape?: IndexShape): Promise<string> {
  const current = await indicesBehindAlias(client, alias);
  if (current[0]) {
    const mappings = await client.indices.getMapping({ index: current[0] });
    const existing = mappings[current[0]]?.mappings.properties ?? {};
    const missing = missingProperties(existing, DOCTORS_MAPPING.properties ?? {});
    if (Object.keys(missing).length > 0)
      await client.indices.putMapping({ index: alias, properties: missing });
    return current[0];
  }
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

export type IndexHealth = {
  reached: boolean;
  /** The index's last known status (`unknown` when the cluster never answered). */
  status: string;
  unassignedShards: number;
  /** The last error, when the cluster did not answer at the end. */
  error?: string;
};

/** Each health request waits at most this long, so a long wait is several bounded requests. */
const HEALTH_POLL_MS = 10_000;

/**
 * Waits until `index` is at least `status` (green: every replica assigned), at most `timeoutMs`.
 * Never throws: a cluster that does not answer (a node lost, a master being elected) is asked again
 * until the deadline, and the caller decides what a health not reached means.
 */
export async function waitForIndexHealth(
  client: Client,
  index: string,
  status: 'green' | 'yellow',
  timeoutMs: number,
): Promise<IndexHealth> {
  const deadline = Date.now() + timeoutMs;
  let last: IndexHealth = { reached: false, status: 'unknown', unassignedShards: 0 };
  for (;;) {
    const waitMs = Math.max(0, Math.min(HEALTH_POLL_MS, deadline - Date.now()));
    try {
      // A health not reached in time is a 408 whose body still says where it stands.
      const health = await client.cluster.health(
        { index, wait_for_status: status, timeout: `${waitMs}ms` },
        { ignore: [408], requestTimeout: waitMs + 10_000, maxRetries: 0 },
      );
      last = {
        reached: !health.timed_out,
        status: String(health.status).toLowerCase(),
        unassignedShards: health.unassigned_shards,
      };
      if (last.reached) return last;
    } catch (error) {
      last = { ...last, error: error instanceof Error ? error.message : String(error) };
      // A refused connection fails at once: pause instead of spinning until the deadline.
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, waitMs)));
    }
    if (Date.now() >= deadline) return last;
  }
}
