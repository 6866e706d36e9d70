// `npm run lint:docker`: lints the Dockerfile with dockerfile-utils (the linter of the Docker language
// server; hadolint is not installable from the package registries this project uses). Its own CLI
// fails only on errors: here every problem it reports, warnings included, fails the check.
import { readFileSync } from 'node:fs';
import { validate } from 'dockerfile-utils';

const path = process.argv[2] ?? 'Dockerfile';
const problems = validate(readFileSync(path, 'utf8'));
for (const problem of problems) {
  console.error(
    `${path}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message}`,
  );
}
if (problems.length > 0) {
  console.error(`${problems.length} problem(s) in ${path}`);
  process.exit(1);
}
console.log(`${path}: no problems`);
