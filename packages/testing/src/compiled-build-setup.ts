import { spawnSync } from 'node:child_process';
import { compiledBuildProblem, REPOSITORY_ROOT } from './processes.js';

/**
 * Global setup of the projects that start processes: they run the compiled build, as production does
 * (`DIRECTORY_PROCESSES=compiled`, a process starts in about a third of tsx's CPU time). When
 * dist/directory.js is missing or older than a source it was built from, `npm run build` runs once here
 * (a few seconds), before any spec; a build that fails stops the run.
 */
export default function compiledBuildSetup(): void {
  const problem = compiledBuildProblem();
  if (problem === undefined) return;
  console.info(`[tests] ${problem.split(':')[0]}: building it (npm run build)`);
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
  const after = compiledBuildProblem();
  if (build.status !== 0 || after !== undefined)
    throw new Error(
      `the tests run the compiled build, and npm run build failed: ${after ?? `exit ${build.status}`}`,
    );
}
