#!/usr/bin/env node
// A scripted DSH for the DSH backend tests: it speaks the versioned JSONL protocol on stdio as the
// adapter understands it (no real DSH is public). Its scenario is a JSON object in its first
// argument; what it received (argv, frames, pids) goes to `scenario.recordFile` for the test.
'use strict';
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');

const scenario = JSON.parse(process.argv[2] || '{}');
const KNOWN_SESSION = 'dsh-session-1';
const version = scenario.frameVersion ?? 1;
const seen = { argv: process.argv.slice(3), pid: process.pid, grandchildPid: undefined, frames: [], events: [] };
const record = () => scenario.recordFile && writeFileSync(scenario.recordFile, JSON.stringify(seen));
const send = (frame) => process.stdout.write(`${JSON.stringify({ v: version, ...frame })}\n`);
const flushAndExit = (code) => process.stdout.write('', () => process.exit(code));

let request;

function execute(frame) {
  request = frame.request_id;
  const base = { request_id: request };
  if (frame.resume_session_id && frame.resume_session_id !== KNOWN_SESSION) {
    send({ ...base, type: 'result', status: 'failed', resume_rejected: true, error: { code: 'session_not_found', message: `no session ${frame.resume_session_id}` } });
    return;
  }
  const sessionId = frame.resume_session_id || KNOWN_SESSION;
  const framed = { ...base, session_id: sessionId };
  if (scenario.foreignFrame) send({ type: 'text', request_id: 'someone-else', content: 'not for you' });
  send({ ...framed, type: 'session', resumed: Boolean(frame.resume_session_id) });
  send({ ...framed, type: 'thinking', content: 'Listing the files first.' });
  if (scenario.hang) {
    // A tool that runs long, with a child of its own in the same process group.
    const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
    seen.grandchildPid = grandchild.pid;
    record();
  }
  send({ ...framed, type: 'tool_call', call_id: 'call-1', name: 'shell', arguments: '{"command":"ls"}' });
  if (scenario.hang) return;
  send({ ...framed, type: 'tool_result', call_id: 'call-1', name: 'shell', output: 'README.md' });
  send({ ...framed, type: 'usage', provider: 'mock', model: 'mock-1', input_tokens: 10, output_tokens: 2, cache_read_tokens: 4 });
  send({ ...framed, type: 'text', content: 'There is one file: README.md.' });
  send({ ...framed, type: 'usage', provider: 'mock', model: 'mock-1', input_tokens: 20, output_tokens: 5 });
  send({ ...framed, type: 'result', status: 'completed', output: 'There is one file: README.md.', stop_reason: 'end_turn' });
}

function onFrame(frame) {
  seen.frames.push(frame);
  seen.events.push(`received ${frame.type}`);
  record();
  if (frame.type === 'execute') execute(frame);
  else if (frame.type === 'cancel' && frame.request_id === request && !scenario.ignoreCancel) {
    send({ type: 'result', request_id: request, session_id: KNOWN_SESSION, status: 'cancelled' });
  }
}

function announceReady() {
  seen.events.push('sent ready');
  record();
  if (!scenario.noReady) send({ type: 'ready', runtime: 'dsh', protocol_version: scenario.protocolVersion ?? 1 });
}

if (scenario.readyAfterMs) setTimeout(announceReady, scenario.readyAfterMs);
else announceReady();

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) if (line.trim() !== '') onFrame(JSON.parse(line));
});
// Like the CLI: the client closing stdin ends the process.
process.stdin.on('end', () => {
  seen.events.push('stdin closed');
  record();
  flushAndExit(0);
});
