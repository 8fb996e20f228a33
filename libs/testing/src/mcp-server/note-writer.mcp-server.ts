import path from 'node:path';
import { workspaceRoot } from '../service-child.process';

/** The tool the note-writer server offers; CLIs may prefix it (`mcp__notes__write_note`, `notes_write_note`). */
export const NOTE_WRITER_TOOL = 'write_note';

/** How a CLI starts the note-writer MCP server (`node <file>`): a neutral stdio server entry. */
export function noteWriterMcpServer(): { readonly command: string; readonly args: readonly string[] } {
  // From the sources, so it runs without a build; the build compiles TypeScript only.
  return { command: process.execPath, args: [path.join(workspaceRoot(), 'libs/testing/src/mcp-server/note-writer.mcp-server.js')] };
}

/** The prompt marker that makes the mock model call `write_note` with these arguments. */
export function writeNoteMarker(target: string, text: string): string {
  return `[[scenario:mcp-tool ${NOTE_WRITER_TOOL} ${JSON.stringify({ path: target, text })}]]`;
}
