import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startProcess } from '@directory/testing';

/**
 * Ingests events the way a data team does: each call writes them to an NDJSON file of its own in
 * `workDir` and runs `ingest <file> --wait` as a process with `env`, which must succeed.
 */
export function ingestFiles(workDir: string, env: Record<string, string>) {
  let fileCount = 0;
  return async (events: object[]): Promise<void> => {
    fileCount += 1;
    const file = join(workDir, `events-${fileCount}.ndjson`);
    await writeFile(file, events.map((event) => JSON.stringify(event)).join('\n') + '\n');
    const run = startProcess('packages/ingest/src/ingest.cli.ts', [file, '--wait'], env);
    expect(await run.exited, run.output()).toBe(0);
  };
}
