#!/usr/bin/env node
// A stand-in for a Claude stream-json family CLI, for the backend tests: it answers with its own
// argv and the prompt it read (first stdin line with --input-format stream-json, else all of
// stdin), as Claude-shaped events. FAKE_REFUSE_RESUME=1 makes it refuse --resume in prose on stderr,
// the way Qwen Code and Claude Code do, and exit 1 with nothing on stdout.
'use strict';
const args = process.argv.slice(2);
const streamJsonInput = args.includes('--input-format');
const resumeIndex = args.indexOf('--resume');

if (resumeIndex >= 0 && process.env.FAKE_REFUSE_RESUME === '1') {
  process.stderr.write(`${process.env.FAKE_REFUSAL_TEXT} ${args[resumeIndex + 1]}.\n`, () => process.exit(1));
} else {
  let received = '';
  const answer = (prompt) => {
    const print = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
    print({ type: 'system', subtype: 'init', session_id: 'fake-session', model: 'fake-model' });
    print({ type: 'assistant', session_id: 'fake-session', message: { model: 'fake-model', content: [{ type: 'text', text: JSON.stringify({ args, prompt }) }] } });
    print({ type: 'result', subtype: 'success', is_error: false, session_id: 'fake-session', result: 'done' });
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    received += chunk;
    if (streamJsonInput && received.includes('\n')) {
      const line = JSON.parse(received.slice(0, received.indexOf('\n')));
      received = '';
      answer(line.message.content[0].text);
    }
  });
  // Stream-json CLIs exit once the host closes stdin after the result; text CLIs read to EOF first.
  process.stdin.on('end', () => (streamJsonInput ? process.exit(0) : answer(received)));
}
