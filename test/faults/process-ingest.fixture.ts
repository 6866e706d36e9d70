import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Database } from '@directory/database';
import type { SearchClient } from '@directory/search-index';
import { SITE_ORIGIN, startProcess, waitForConvergence } from '@directory/testing';

export type ProcessIngest = {
  /** Writes the lines to a file and runs `npm run ingest -- FILE` with the spec's environment; must exit 0. */
  ingest: (lines: ReadonlyArray<string>) => Promise<void>;
  /** Events the store holds now. */
  storedEvents: () => Promise<number>;
  /** Waits until the store and the index hold exactly what was ingested so far (fault-checks.ts). */
  converged: () => Promise<void>;
  cleanup: () => Promise<void>;
};

/**
 * Ingestion as a user runs it, for a spec with a store and an index of its own (a private Elasticsearch
 * cluster, say), with the checks every such scenario ends on.
 */
export async function startProcessIngest(options: {
  env: Record<string, string>;
  db: Database;
  search: { client: SearchClient; alias: string };
}): Promise<ProcessIngest> {
  const workDir = await mkdtemp(join(tmpdir(), 'process-ingest-'));
  const ingested: string[] = [];
  return {
    ingest: async (lines) => {
      const file = join(workDir, `input-${ingested.length}.ndjson`);
      await writeFile(file, `${lines.join('\n')}\n`);
      const producer = startProcess('packages/ingest/src/ingest.cli.ts', [file], options.env);
      expect(await producer.exited, producer.output()).toBe(0);
      ingested.push(...lines);
    },
    storedEvents: async () =>
      Number(
        (
          await options.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    converged: () =>
      waitForConvergence(
        { db: options.db, search: options.search, siteOrigin: SITE_ORIGIN, lines: ingested },
        120_000,
      ),
    cleanup: () => rm(workDir, { recursive: true, force: true }),
  };
}
