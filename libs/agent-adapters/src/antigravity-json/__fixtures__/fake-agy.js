#!/usr/bin/env node
// A scripted `agy` for the Antigravity backend tests: print mode as the adapter understands it
// (plain text, or stream-json from 1.1.8 on), a glog `--log-file` naming the conversation, and
// agy's own refusals (an unknown flag exits 2). Its scenario is a JSON object in its first
// argument; what it was started with goes to `scenario.recordFile`.
'use strict';
const { spawn } = require('node:child_process');
const { appendFileSync, writeFileSync } = require('node:fs');

const scenario = JSON.parse(process.argv[2] || '{}');
const argv = process.argv.slice(3);
const NEW_CONVERSATION = 'c0ffee00-0000-4000-8000-000000000001';
const VALUE_FLAGS = new Set(['-p', '--model', '--print-timeout', '--log-file', '--conversation', '--add-dir', '--output-format']);
const SWITCHES = new Set(['--dangerously-skip-permissions']);

const exit = (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
const refuse = (message) => {
  process.stderr.write(`${message}\n`);
  exit(2);
};

const flags = {};
for (let index = 0; index < argv.length; index += 1) {
  const arg = argv[index];
  if (SWITCHES.has(arg)) flags[arg] = true;
  else if (VALUE_FLAGS.has(arg) && index + 1 < argv.length) flags[arg] = argv[++index];
  else return refuse(`flag provided but not defined: ${arg}`);
}
const seen = { argv, pid: process.pid, grandchildPid: undefined };
const record = () => scenario.recordFile && writeFileSync(scenario.recordFile, JSON.stringify(seen));
record();

if (flags['--output-format'] && scenario.textOnly) return refuse('flags provided but not defined: -output-format');
if (flags['-p'] === undefined) return refuse('fake agy: no -p prompt');
if (flags['--print-timeout'] === undefined) return refuse('fake agy: --print-timeout must be passed (it is 5m otherwise)');

const conversation = flags['--conversation'] || NEW_CONVERSATION;
const log = (line) => flags['--log-file'] && appendFileSync(flags['--log-file'], `${line}\n`);
log('I0901 10:00:00.100001 4242 common.go:156] CLI app data directory: /tmp/fake-agy-home');
log(`I0901 10:00:00.300002 4242 printmode.go:130] Print mode: conversation=${conversation}, sending message`);

const json = flags['--output-format'] === 'stream-json';
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const step = (fields) => say({ event: 'step_update', step_update: { ...(scenario.idInStream === false ? {} : { conversation_id: conversation }), ...fields } });

if (scenario.exitCode) {
  process.stderr.write('agy: authentication required\n');
  return exit(scenario.exitCode);
}
if (scenario.printTimeout) {
  log('E0901 10:05:00.300002 4242 printmode.go:289] Print mode: timed out after 100 polls (printed=1)');
  process.stdout.write('Error: timed out waiting for response\n');
  return exit(0);
}

// A long tool, with a child of its own in the same process group, started before anything is shown.
if (scenario.hang) {
  const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
  seen.grandchildPid = grandchild.pid;
  record();
}

if (json) {
  say({ event: 'init', ...(scenario.idInStream === false ? {} : { conversation_id: conversation }), init: { model: 'gemini-test', cwd: process.cwd(), tools: ['list_dir'] } });
  step({ step_index: 0, state: 'DONE', step_type: 'user_input', text_delta: flags['-p'] });
  step({ step_index: 1, state: 'ACTIVE', step_type: 'tool', tool_name: 'list_dir', tool_info: { name: 'list_dir', parameters: { Path: flags['--add-dir'] } } });
} else {
  process.stdout.write('I will list the files in the workspace.\n\n');
}
if (scenario.hang) return;

if (json) {
  step({ step_index: 1, state: 'DONE', step_type: 'tool', tool_name: 'list_dir', output: '1 entry' });
  step({ step_index: 2, state: 'ACTIVE', step_type: 'agent_response', text_delta: 'There is one file: ' });
  step({ step_index: 2, state: 'DONE', text_delta: 'README.md.' });
  say({
    event: 'result',
    result: {
      ...(scenario.idInStream === false ? {} : { conversation_id: conversation }),
      status: 'SUCCESS',
      response: 'There is one file: README.md.',
      usage: { input_tokens: 100, output_tokens: 20, cache_read_tokens: 40, total_tokens: 120 },
    },
  });
} else {
  process.stdout.write('There is one file: README.md.\n');
}
exit(0);
