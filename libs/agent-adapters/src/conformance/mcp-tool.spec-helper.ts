import { readFileSync } from 'node:fs';
import type { AgentMessage } from '@switchyard/contracts';
import { NOTE_WRITER_TOOL, noteWriterMcpServer, writeNoteMarker } from '@switchyard/testing';
import type { McpServer } from '../mcp/mcp-server.types';

/** The server name every MCP conformance test gives the note writer (CLIs put it in the tool's name). */
export const NOTE_WRITER_SERVER = 'notes';

/** The note-writer MCP server as the daemon's neutral-config parser would hand it to a writer. */
export function noteWriterServers(): McpServer[] {
  const { command, args } = noteWriterMcpServer();
  return [{ kind: 'stdio', name: NOTE_WRITER_SERVER, command, args: [...args], env: {} }];
}

/** A prompt that makes the mock model call the note writer's tool through the CLI. */
export function writeNotePrompt(target: string, text: string): string {
  return `Write the note with the MCP tool ${writeNoteMarker(target, text)}`;
}

type ToolUseMessage = Extract<AgentMessage, { type: 'tool-use' }>;

/** Most CLIs name the tool itself (`mcp__notes__write_note`, `notes_write_note`, ...). */
const namesNoteTool = (message: ToolUseMessage): boolean => message.tool.includes(NOTE_WRITER_TOOL);

/**
 * The proof that the CLI called the MCP tool: the server wrote the file, and the timeline holds the
 * tool's use and its successful result for the same call. `isNoteToolUse` says how this family's
 * timeline names the call (ACP has only a kind and a title).
 */
export function expectNoteWrittenThroughMcp(options: {
  readonly messages: readonly AgentMessage[];
  readonly target: string;
  readonly text: string;
  readonly isNoteToolUse?: (message: ToolUseMessage) => boolean;
}): ToolUseMessage {
  const { messages, target, text } = options;
  const isNoteToolUse = options.isNoteToolUse ?? namesNoteTool;
  expect(readFileSync(target, 'utf8')).toBe(text);
  const toolUse = messages.find((message): message is ToolUseMessage => message.type === 'tool-use' && isNoteToolUse(message));
  if (!toolUse) throw new Error(`no tool-use of ${NOTE_WRITER_TOOL} in the timeline: ${JSON.stringify(messages)}`);
  const toolResult = messages.find((message) => message.type === 'tool-result' && message.callId === toolUse.callId);
  expect(toolResult).toMatchObject({ type: 'tool-result', status: 'ok', output: expect.stringContaining(`note written to ${target}`) as string });
  return toolUse;
}
