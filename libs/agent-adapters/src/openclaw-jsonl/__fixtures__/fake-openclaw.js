#!/usr/bin/env node
// A stand-in `openclaw` for the backend tests. It runs the steps in the JSON array of env
// FAKE_OPENCLAW_STEPS in order, and writes its pid to env FAKE_OPENCLAW_PID_FILE when set.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const steps = JSON.parse(process.env.FAKE_OPENCLAW_STEPS || '[]');
const args = process.argv.slice(2);
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
// Like OpenClaw's writeRuntimeJson: JSON.stringify(value, undefined, 2).
const printDocument = (value) => process.stdout.write(`${JSON.stringify(value, undefined, 2)}\n`);

async function run() {
  if (process.env.FAKE_OPENCLAW_PID_FILE) writeFileSync(process.env.FAKE_OPENCLAW_PID_FILE, String(process.pid));
  for (const step of steps) {
    if ('printDocument' in step) printDocument(step.printDocument);
    else if ('printFixture' in step) process.stdout.write(readFileSync(path.join(__dirname, step.printFixture), 'utf8'));
    else if ('printArgs' in step) printDocument({ payloads: [{ text: JSON.stringify(args), mediaUrl: null }], meta: { stopReason: 'stop' } });
    else if ('printRaw' in step) process.stdout.write(step.printRaw);
    else if ('sleep' in step) await sleep(step.sleep);
    else if ('stderr' in step) process.stderr.write(`${step.stderr}\n`);
    else if ('hang' in step) await new Promise(() => setInterval(() => undefined, 1000));
    else if ('exit' in step) {
      await new Promise((resolve) => process.stdout.write('', resolve));
      await new Promise((resolve) => process.stderr.write('', resolve));
      process.exit(step.exit);
    }
  }
}

run().catch((error) => {
  process.stderr.write(`fake-openclaw failed: ${error.stack}\n`);
  process.exit(70);
});
