#!/usr/bin/env node
// A stand-in coding-agent CLI for the runner and session tests. Its behaviour is a JSON array of
// steps in its last argument, run in order.
'use strict';
const { spawn } = require('node:child_process');

const steps = JSON.parse(process.argv[process.argv.length - 1] || '[]');
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const printJson = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function run() {
  for (const step of steps) {
    if ('print' in step) printJson(step.print);
    else if ('printRaw' in step) process.stdout.write(step.printRaw);
    else if ('printBytes' in step) process.stdout.write(Buffer.from(step.printBytes));
    else if ('sleep' in step) await sleep(step.sleep);
    else if ('printEnv' in step) printJson({ type: 'env', env: process.env });
    else if ('printArgs' in step) printJson({ type: 'args', args: process.argv.slice(2, -1) });
    else if ('ignoreSigterm' in step) process.on('SIGTERM', () => undefined);
    else if ('bigLine' in step) {
      // Streamed in pieces, as a real CLI would write a huge JSON event.
      const piece = 'x'.repeat(1024 * 1024);
      for (let written = 0; written < step.bigLine; written += piece.length) process.stdout.write(piece);
      process.stdout.write('\n');
    } else if ('stderrFlood' in step) {
      for (let line = 0; line < step.stderrFlood; line += 1) process.stderr.write(`stderr line ${line} ${'e'.repeat(100)}\n`);
    } else if ('stderr' in step) process.stderr.write(`${step.stderr}\n`);
    else if ('spawnGrandchild' in step) {
      const options = step.spawnGrandchild;
      const script = options.ignoreSigterm ? "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" : 'setInterval(() => {}, 1000)';
      // Same process group as this CLI. Holding our stdout mimics a tool server that outlives us.
      const grandchild = spawn(process.execPath, ['-e', script], { stdio: options.holdStdout ? ['ignore', 'inherit', 'inherit'] : 'ignore' });
      printJson({ type: 'grandchild', pid: grandchild.pid });
      grandchild.unref();
    } else if ('echoStdin' in step) {
      // Echo each stdin line until stdin closes, like a stream-json CLI reading user messages.
      let pending = '';
      process.stdin.on('data', (chunk) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop();
        for (const line of lines) printJson({ type: 'stdin', line });
      });
      await new Promise((resolve) => process.stdin.on('end', resolve));
    } else if ('hang' in step) await new Promise(() => setInterval(() => undefined, 1000));
    else if ('exit' in step) {
      // Writes to a pipe may still be queued; exiting before they flush would lose them.
      await new Promise((resolve) => process.stdout.write('', resolve));
      await new Promise((resolve) => process.stderr.write('', resolve));
      process.exit(step.exit);
    }
  }
}

run().catch((error) => {
  process.stderr.write(`fake-cli failed: ${error.stack}\n`);
  process.exit(70);
});
