import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { createTestDatabase, createTestSearch, type TestDatabase, type TestSearch } from '@directory/testing';
import { describeMachine, formatMachine } from '../../bench/machine.js';

describe('describeMachine', () => {
  let database: TestDatabase;
  let search: TestSearch;

  beforeAll(async () => {
    database = await createTestDatabase('bench-machine');
    search = createTestSearch('bench-machine');
  });

  afterAll(async () => {
    await search.cleanup();
    await database.drop();
  });

  it("reads the machine and every engine's version and settings from the running servers", async () => {
    const { block, facts } = await describeMachine({
      config: loadConfig(),
      db: database.db,
      databaseUrl: database.url,
      client: search.client,
    });
    expect(facts.cores).toBeGreaterThan(0);
    expect(facts.memory_bytes).toBeGreaterThan(0);
    expect(facts.node).toBe(process.version);
    expect(facts.elasticsearch.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(facts.elasticsearch.nodes).toBeGreaterThan(0);
    expect(facts.elasticsearch.heap_max_bytes).toBeGreaterThan(0);
    expect(facts.postgresql.version).toMatch(/^\d+\.\d+/);
    expect(facts.postgresql.shared_buffers).toMatch(/^\d+[kMG]B$/);
    expect(['on', 'off', 'local', 'remote_write', 'remote_apply']).toContain(
      facts.postgresql.synchronous_commit,
    );
    expect(['minimal', 'replica', 'logical']).toContain(facts.postgresql.wal_level);
    expect(facts.postgresql.max_wal_size).toMatch(/^\d+[kMGT]B$/);
    expect(facts.postgresql.checkpoint_timeout).toMatch(/^\d+(?:s|min|h)$/);
    expect(['on', 'off']).toContain(facts.postgresql.fsync);
    expect(facts.redis.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(facts.redis.maxmemory)).toBe(true);
    // The shared servers of the test run listen on loopback TCP.
    expect([facts.postgresql.socket, facts.redis.socket]).toEqual(['tcp', 'tcp']);
    expect(block).toBe(formatMachine(facts));
    // JSON-able as it is: a benchmark may add it to what it records.
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
  });
});
