#!/usr/bin/env node
// A small Claude Code stand-in (stream-json) for the process-fault suite: after the prompt it emits
// `events` assistant text messages, one every `interval` ms (paced by the clock), then a result.
// The prompt carries the script: `[[steady events=<n> interval=<ms>]]` (` escape=1` before the
// closing brackets: it also leaves escaped processes behind, see `escape`). It exits when its host goes
// away (stdin closed or stdout broken), so a SIGKILLed daemon leaves no agent behind.
'use strict';
const { createInterface } = require('node:readline');
const { randomUUID } = require('node:crypto');

if (process.argv.includes('--version')) {
  process.stdout.write('2.1.197 (Claude Code)\n');
  process.exit(0);
}

process.stdout.on('error', () => process.exit(0));
const write = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

const lines = createInterface({ input: process.stdin });
let started = false;
lines.on('close', () => process.exit(0));
lines.on('line', (line) => {
  if (started) return;
  started = true;
  const match = /\[\[steady events=(\d+) interval=(\d+)( escape=1)?\]\]/.exec(line);
  if (match && match[3]) escape();
  void run({ events: Number(match ? match[1] : 10), intervalMs: Number(match ? match[2] : 10) });
});

// Leaves two processes behind the way agents' dev servers and watchers do: a `sleep` double-forked
// out of a subshell (an orphan in this group) and a `setsid` one (an orphan in a session and group
// of its own, beyond any signal to this group).
function escape() {
  const { spawn } = require('node:child_process');
  spawn('/bin/sh', ['-c', '( sleep 600 & ) ; setsid sleep 601 &'], { stdio: 'ignore' });
}

async function run({ events, intervalMs }) {
  const sessionId = randomUUID();
  write({ type: 'system', subtype: 'init', session_id: sessionId, model: 'steady-model' });
  const startedAt = performance.now();
  for (let index = 0; index < events; index += 1) {
    const wait = startedAt + index * intervalMs - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    write({ type: 'assistant', session_id: sessionId, message: { model: 'steady-model', content: [{ type: 'text', text: `steady event ${index} of ${events}` }] } });
  }
  write({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: `emitted ${events}`,
    session_id: sessionId,
    modelUsage: { 'steady-model': { inputTokens: 1, outputTokens: events } },
  });
  // Like Claude Code: exits once stdin closes after the result (or gives up waiting).
  setTimeout(() => process.exit(0), 5_000).unref();
}
