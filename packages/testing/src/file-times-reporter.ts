import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { fileDurations } from './file-order.js';
import { REPOSITORY_ROOT } from './processes.js';

/** Where a run leaves each file's time (`npm run test:durations` copies it to test/file-durations.json). */
export const FILE_TIMES_PATH = join(REPOSITORY_ROOT, 'test-results', 'file-durations.json');

/**
 * Records each spec file's whole time: importing it, its hooks and its tests. vitest's JSON report dates a
 * file from its first test, leaving out `beforeAll` (a private cluster starting, an index filled), which is
 * where many of the long files spend their time.
 */
export class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const times = testModules.map((testModule) => {
      const { collectDuration, duration } = testModule.diagnostic();
      return {
        path: relative(REPOSITORY_ROOT, testModule.moduleId).split(sep).join('/'),
        milliseconds: collectDuration + duration,
      };
    });
    mkdirSync(dirname(FILE_TIMES_PATH), { recursive: true });
    writeFileSync(FILE_TIMES_PATH, `${JSON.stringify(fileDurations(times), null, 2)}\n`);
  }
}
