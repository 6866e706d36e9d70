import { readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { orderLongestFirst, type FileDurations } from './file-order.js';
import { REPOSITORY_ROOT } from './processes.js';

/** Where each spec file's time in an earlier full run is kept (`npm run test:durations` writes it). */
export const FILE_DURATIONS_PATH = join(REPOSITORY_ROOT, 'test', 'file-durations.json');

function readDurations(): FileDurations {
  try {
    return JSON.parse(readFileSync(FILE_DURATIONS_PATH, 'utf8')) as FileDurations;
  } catch {
    // No timings: every file counts as new and the largest start first.
    return {};
  }
}

/** vitest's sequencer with the start order of `orderLongestFirst` (sharding stays vitest's own). */
export class LongestFirstSequencer extends BaseSequencer {
  override sort(specifications: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const files = specifications.map((specification) => ({
      specification,
      path: relative(REPOSITORY_ROOT, specification.moduleId).split(sep).join('/'),
      size: statSync(specification.moduleId).size,
    }));
    return Promise.resolve(orderLongestFirst(files, durations).map((file) => file.specification));
  }
}
