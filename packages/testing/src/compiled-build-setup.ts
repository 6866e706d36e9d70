import { compiledBuildProblem } from './processes.js';

/**
 * Global setup of the projects that run the compiled processes (the e2e project): stop before any spec
 * when dist/directory.js is missing or older than its sources, instead of in every spec's first start.
 */
export default function compiledBuildSetup(): void {
  const problem = compiledBuildProblem();
  if (problem !== undefined) throw new Error(`the e2e project runs the compiled build: ${problem}`);
}
