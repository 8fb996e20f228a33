#!/usr/bin/env node
// A stand-in `copilot` for the backend tests. It ignores its flags (they are reported by the
// `printArgs` step) and runs the steps in the JSON array of env FAKE_COPILOT_STEPS, in order.
'use strict';

const steps = JSON.parse(process.env.FAKE_COPILOT_STEPS || '[]');
const args = process.argv.slice(2);
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const printJson = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const info = (infoType, message) => printJson({ type: 'session.info', data: { infoType, message } });

async function run() {
  for (const step of steps) {
    if ('print' in step) printJson(step.print);
    else if ('printRaw' in step) process.stdout.write(step.printRaw);
    else if ('sleep' in step) await sleep(step.sleep);
    else if ('stderr' in step) process.stderr.write(`${step.stderr}\n`);
    else if ('printArgs' in step) info('args', JSON.stringify(args));
    else if ('printPid' in step) info('pid', String(process.pid));
    else if ('writeUsageFile' in step) {
      const index = args.indexOf('--usage-output-file');
      require('node:fs').writeFileSync(args[index + 1], JSON.stringify(step.writeUsageFile));
    } else if ('hang' in step) await new Promise(() => setInterval(() => undefined, 1000));
    else if ('exit' in step) {
      await new Promise((resolve) => process.stdout.write('', resolve));
      await new Promise((resolve) => process.stderr.write('', resolve));
      process.exit(step.exit);
    }
  }
}

run().catch((error) => {
  process.stderr.write(`fake-copilot failed: ${error.stack}\n`);
  process.exit(70);
});
