// Prints the ten slowest test files, then `N passed, N failed` from vitest's JSON report (static check
// failures count as failed) as the last line. A missing or empty report is a failure, so a run that
// executed no test is never green.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [reportPath, staticFailuresArgument = '0'] = process.argv.slice(2);
const staticFailures = Number(staticFailuresArgument);
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`no vitest report at ${reportPath}: ${error.message}`);
  console.log(`0 passed, ${1 + staticFailures} failed`);
  process.exit(1);
}
// Each file's whole time (import, hooks and tests), as the run's file-times reporter wrote it beside the
// report; vitest's own report dates a file from its first test, which leaves a long beforeAll out.
let files = [];
try {
  const durations = JSON.parse(readFileSync(join(dirname(reportPath), 'file-durations.json'), 'utf8'));
  files = Object.entries(durations)
    .map(([name, seconds]) => ({ name, seconds }))
    .sort((a, b) => b.seconds - a.seconds);
} catch (error) {
  console.log(`no file times beside the report (${error.message})`);
}
if (files.length > 0) {
  console.log(`the ten slowest of ${files.length} test files (import, hooks and tests):`);
  for (const file of files.slice(0, 10))
    console.log(`${file.seconds.toFixed(1).padStart(8)} s  ${file.name}`);
}
const passed = report.numPassedTests ?? 0;
// A file that fails before its tests run (in a hook), or unhandled errors, fail a vitest run even when no
// test failed: count that as one failure, and say which it was.
const unhandled = report.success === false && (report.numFailedTests ?? 0) === 0 ? 1 : 0;
if (unhandled && (report.numFailedTestSuites ?? 0) > 0)
  console.log('a test file failed outside its tests, in a hook (see above); its tests count as skipped');
else if (unhandled) console.log('vitest reported unhandled errors during the run (see above)');
const failed = (report.numFailedTests ?? 0) + staticFailures + unhandled;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (passed + failed === 0) {
  console.log('the test run executed no test');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
