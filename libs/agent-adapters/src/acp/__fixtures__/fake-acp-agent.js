#!/usr/bin/env node
// A scripted ACP agent on stdio for the ACP backend tests (what the real Gemini CLI does not show:
// session/resume, requests the client does not serve, a reject policy, an exit mid-request). Its
// scenario is a JSON object in its last argument. In its answer it reports what the client sent.
'use strict';

const scenario = JSON.parse(process.argv[process.argv.length - 1] || '{}');
const SESSION_ID = 'fake-session-1';
const send = (frame) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...frame })}\n`);

const waiting = new Map();
let nextId = 100;
const ask = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    send({ id, method, params });
  });

const seen = { resumedWith: undefined, permission: undefined, unknownRequest: undefined, mcpServers: undefined };
// The servers the client sent with the session it opened, by method.
const noteMcpServers = (frame) => (seen.mcpServers = { method: frame.method, servers: frame.params.mcpServers });

async function onRequest(frame) {
  switch (frame.method) {
    case 'initialize':
      return send({
        id: frame.id,
        result: {
          protocolVersion: 1,
          agentCapabilities: {
            loadSession: true,
            ...(scenario.advertiseResume ? { sessionCapabilities: { resume: {} } } : {}),
            ...(scenario.mcpCapabilities ? { mcpCapabilities: scenario.mcpCapabilities } : {}),
          },
        },
      });
    case 'session/new':
      noteMcpServers(frame);
      return send({ id: frame.id, result: { sessionId: SESSION_ID } });
    case 'session/load':
    case 'session/resume':
      seen.resumedWith = frame.method;
      noteMcpServers(frame);
      if (scenario.rejectResume) return send({ id: frame.id, error: { code: -32603, message: 'Internal error', data: { details: 'Invalid session identifier' } } });
      return send({ id: frame.id, result: {} });
    case 'session/prompt': {
      if (scenario.exitDuringPrompt) {
        await new Promise((resolve) => process.stdout.write('', resolve));
        process.exit(3);
      }
      if (scenario.askPermission) {
        seen.permission = await ask('session/request_permission', {
          sessionId: SESSION_ID,
          toolCall: { toolCallId: 'call-1', title: 'touch file', kind: 'execute', status: 'pending' },
          options: [
            { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
            { optionId: 'never', name: 'Reject always', kind: 'reject_always' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        const status = seen.permission.result?.outcome?.optionId === 'once' ? 'completed' : 'failed';
        send({ method: 'session/update', params: { sessionId: SESSION_ID, update: { sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status } } });
      }
      if (scenario.askUnknown) seen.unknownRequest = await ask('fs/read_text_file', { sessionId: SESSION_ID, path: '/etc/hostname' });
      const text = JSON.stringify(seen);
      send({ method: 'session/update', params: { sessionId: SESSION_ID, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
      return send({ id: frame.id, result: { stopReason: 'end_turn' } });
    }
    default:
      return send({ id: frame.id, error: { code: -32601, message: `Method not found: ${frame.method}` } });
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const frame = JSON.parse(line);
    if (typeof frame.method === 'string' && frame.id !== undefined) {
      onRequest(frame).catch((error) => {
        process.stderr.write(`fake-acp-agent failed: ${error.stack}\n`);
        process.exit(70);
      });
    } else if (frame.method === undefined && waiting.has(frame.id)) {
      waiting.get(frame.id)(frame);
      waiting.delete(frame.id);
    }
  }
});
process.stdin.on('end', () => process.exit(0));
