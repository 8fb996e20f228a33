#!/usr/bin/env node
// A misbehaving coding-agent CLI for the fault suite. Its first argument is a JSON script
// `{ "options": { "eol", "bom" }, "steps": [...] }` (or `@<file>` holding one), run in order;
// every later argument (the adapter's own launch arguments) is ignored. `--version` alone answers
// like a CLI would, so a daemon can register it as a runtime profile. See `fault-cli.steps.ts`.
'use strict';
const { spawn } = require('node:child_process');
const { closeSync, readFileSync } = require('node:fs');

const scriptArgument = process.argv[2];
if (scriptArgument === undefined || scriptArgument === '--version') {
  process.stdout.write('fault-cli 0.0.1\n');
  process.exit(0);
}
// `@<file>`: the script is in that file (a runtime profile's fixed arguments are short).
const scriptText = scriptArgument.startsWith('@') ? readFileSync(scriptArgument.slice(1), 'utf8') : scriptArgument;
const { options = {}, steps = [] } = JSON.parse(scriptText);
const eol = options.eol ?? '\n';
const bom = options.bom ? '\uFEFF' : '';

// A reader that went away (the adapter killed us, or closed the pipe) is not our problem here.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
process.stdin.on('error', () => undefined);

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const writeTo = (stream, data) => new Promise((resolve) => (stream.write(data) ? resolve() : stream.once('drain', resolve)));
const out = (data) => writeTo(process.stdout, data);
// Resolves once everything written before is flushed: `process.exit` drops what is still queued.
const flush = (stream) => new Promise((resolve) => stream.write('', () => resolve()));
const serialize = (value, pretty) => `${bom}${JSON.stringify(value, null, pretty ? 2 : undefined).replace(/\n/g, eol)}${eol}`;

// What the host wrote on stdin: one JSON frame per line, consumed by `await` / `reply` in order.
const received = [];
let notify = () => undefined;
let pendingInput = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pendingInput += chunk;
  const lines = pendingInput.split('\n');
  pendingInput = lines.pop();
  for (const line of lines) {
    try {
      received.push({ frame: JSON.parse(line), awaited: false, answered: false });
    } catch {
      // Not for us to judge the host's lines.
    }
  }
  notify();
});

const matches = (frame, name) => frame !== null && typeof frame === 'object' && (frame.method === name || frame.type === name);
/** The first frame named `name` not yet taken for this purpose (`awaited` or `answered`). */
async function takeFrame(name, purpose) {
  for (;;) {
    const entry = received.find((candidate) => !candidate[purpose] && matches(candidate.frame, name));
    if (entry) {
      entry[purpose] = true;
      return entry.frame;
    }
    await new Promise((resolve) => (notify = resolve));
  }
}

async function repeat(text, times) {
  // Batched, so a flood of tiny lines does not become a flood of tiny writes.
  const batch = Math.max(1, Math.floor(65536 / Math.max(1, Buffer.byteLength(text))));
  for (let written = 0; written < times; written += batch) await out(text.repeat(Math.min(batch, times - written)));
}

function deepJson(depth, leaf) {
  return `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
}

async function run() {
  for (const step of steps) {
    if ('frame' in step) await out(serialize(step.frame, step.pretty));
    else if ('out' in step) await out(step.out);
    else if ('outBase64' in step) await out(Buffer.from(step.outBase64, 'base64'));
    else if ('err' in step) await writeTo(process.stderr, `${step.err}\n`);
    else if ('repeat' in step) await repeat(step.repeat.text, step.repeat.times);
    else if ('deep' in step) await out(`${step.deep.head ?? ''}${deepJson(step.deep.depth, step.deep.leaf ?? '0')}${step.deep.tail ?? ''}${eol}`);
    else if ('bigLine' in step) {
      // Streamed in pieces, as a CLI writes a huge event; `head` and `tail` make it look like JSON.
      const piece = 'x'.repeat(1024 * 1024);
      await out(step.bigLine.head ?? '');
      for (let written = 0; written < step.bigLine.bytes; written += piece.length) await out(piece);
      await out(`${step.bigLine.tail ?? ''}${eol}`);
    } else if ('stderrFlood' in step) {
      const line = `stderr flood ${'e'.repeat(100)}\n`;
      const batch = 500;
      for (let written = 0; written < step.stderrFlood.lines; written += batch) await writeTo(process.stderr, line.repeat(batch));
    } else if ('trickle' in step) {
      // One byte per write, so lines (and multi-byte characters) arrive split across chunks.
      for (const byte of Buffer.from(step.trickle.text, 'utf8')) {
        await out(Buffer.from([byte]));
        await sleep(step.trickle.delayMs ?? 1);
      }
    } else if ('await' in step) await takeFrame(step.await, 'awaited');
    else if ('reply' in step) {
      const request = await takeFrame(step.reply, 'answered');
      const body = 'error' in step ? { error: step.error } : { result: step.result ?? null };
      await out(serialize({ jsonrpc: '2.0', id: request.id, ...body }, false));
    } else if ('sleep' in step) await sleep(step.sleep);
    else if ('ignoreSigterm' in step) process.on('SIGTERM', () => undefined);
    else if ('closeStdout' in step) {
      await flush(process.stdout);
      closeSync(1);
    }
    else if ('spawnGrandchild' in step) {
      // Same process group and environment; holding our stdout mimics a tool server that outlives us.
      const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        stdio: step.spawnGrandchild.holdStdout ? ['ignore', 'inherit', 'ignore'] : 'ignore',
      });
      grandchild.unref();
    } else if ('hang' in step) await new Promise(() => setInterval(() => undefined, 1000));
    else if ('signal' in step) {
      await flush(process.stdout);
      process.kill(process.pid, step.signal);
      await sleep(10_000);
    } else if ('exit' in step) {
      await flush(process.stdout);
      await flush(process.stderr);
      process.exit(step.exit);
    } else throw new Error(`unknown step ${JSON.stringify(step)}`);
  }
  await flush(process.stdout);
  await flush(process.stderr);
  process.exit(0);
}

run().catch((error) => {
  process.stderr.write(`fault-cli failed: ${error.stack}\n`);
  process.exit(70);
});
