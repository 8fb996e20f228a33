// Prints the plain `N passed, N failed` line CI reads, from jest's --json output file.
// A suite that failed to run (syntax error, setup crash) counts as one failure, so it is never hidden.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.switchyard/test-results.json';
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  process.stdout.write(`no jest results at ${file} (${error.message})\n0 passed, 1 failed\n`);
  process.exit(1);
}

const passed = results.numPassedTests ?? 0;
const brokenSuites = (results.testResults ?? []).filter(
  (suite) => suite.status === 'failed' && (suite.assertionResults ?? []).every((test) => test.status !== 'failed'),
);
for (const suite of brokenSuites) {
  process.stdout.write(`suite failed to run: ${suite.name}\n${(suite.message ?? '').slice(0, 2000)}\n`);
}
const failed = (results.numFailedTests ?? 0) + brokenSuites.length;
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
if (passed + failed === 0) {
  process.stdout.write('jest ran no test\n0 passed, 1 failed\n');
  process.exit(1);
}
process.stdout.write(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
