import { deepStrictEqual } from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/**
 * Golden answers: compares what a spec recorded with the fixture file, entry by entry (each labelled, so
 * a failure names the call), or, with `UPDATE_GOLDEN=1`, writes the recording as the new fixture — only
 * for a change that is meant; review the fixture's diff.
 */
export async function expectGolden<Entry>(
  fixture: URL,
  actual: ReadonlyArray<Entry>,
  labelOf: (entry: Entry) => string,
): Promise<void> {
  if (process.env.UPDATE_GOLDEN === '1') {
    // Written as the repository's formatter would, so format:check stays clean.
    const options = await resolveConfig(fileURLToPath(fixture));
    writeFileSync(fixture, await format(JSON.stringify(actual), { ...options, parser: 'json' }));
    return;
  }
  const golden = JSON.parse(readFileSync(fixture, 'utf8')) as Entry[];
  // node:assert rather than vitest's expect: this package is also loaded by benchmarks, outside vitest.
  deepStrictEqual(actual.map(labelOf), golden.map(labelOf), 'the recorded calls differ');
  for (const [index, entry] of actual.entries()) deepStrictEqual(entry, golden[index], labelOf(entry));
}
