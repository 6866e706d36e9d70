import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { fileDurations } from './file-order.js';
import { REPOSITORY_ROOT } from './processes.js';
import { formatProjectCpu, parseProcStat, projectCpu, type ProjectMark } from './project-cpu.js';

/** Where a run leaves each file's time (`npm run test:durations` copies it to test/file-durations.json). */
export const FILE_TIMES_PATH = join(REPOSITORY_ROOT, 'test-results', 'file-durations.json');
/** Where a run leaves each project's wall time and busy cores (also printed at the end of the run). */
export const PROJECT_CPU_PATH = join(REPOSITORY_ROOT, 'test-results', 'project-cpu.json');

/** Clock ticks per second of /proc/stat's counters (100 on Linux unless configured otherwise). */
function ticksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * Records each spec file's whole time: importing it, its hooks and its tests. vitest's JSON report dates a
 * file from its first test, leaving out `beforeAll` (a private cluster starting, an index filled), which is
 * where many of the long files spend their time. Also records each project's wall time and the cores the
 * machine kept busy meanwhile (what the suite costs, not only how long it takes).
 */
export class FileTimesReporter implements Reporter {
  private readonly ticks = ticksPerSecond();
  private readonly marks: ProjectMark[] = [];

  onTestModuleQueued(testModule: TestModule): void {
    this.mark(testModule);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.mark(testModule);
  }

  /** The clock and the machine's CPU counters as one of the project's files starts or ends (Linux only). */
  private mark(testModule: TestModule): void {
    let text: string;
    try {
      text = readFileSync('/proc/stat', 'utf8');
    } catch {
      return;
    }
    const cpu = parseProcStat(text, this.ticks);
    if (cpu !== undefined) {
      this.marks.push({ project: testModule.project.name, seconds: performance.now() / 1000, cpu });
    }
  }

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
    const projects = projectCpu(this.marks);
    writeFileSync(PROJECT_CPU_PATH, `${JSON.stringify(projects, null, 2)}\n`);
    if (projects.length > 0) {
      console.log(
        ['each project, first file started to last ended:', ...formatProjectCpu(projects)].join('\n  '),
      );
    }
  }
}
