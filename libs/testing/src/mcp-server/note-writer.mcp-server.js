#!/usr/bin/env node
// A stdio MCP server for tests: one tool, `write_note {path, text}`, that writes `text` to the
// absolute `path`. Plain CommonJS so every CLI can start it as `node <this file>` from the sources
// (the build compiles only TypeScript). The file it writes is the proof that the CLI really called it.
'use strict';

const { mkdir, writeFile } = require('node:fs/promises');
const path = require('node:path');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const server = new McpServer({ name: 'switchyard-note-writer', version: '1.0.0' });

server.registerTool(
  'write_note',
  {
    description: 'Writes a note: the text into the file at the absolute path.',
    inputSchema: { path: z.string().describe('Absolute path of the file to write'), text: z.string().describe('What the file holds') },
  },
  async ({ path: target, text }) => {
    if (!path.isAbsolute(target)) return { isError: true, content: [{ type: 'text', text: `write_note needs an absolute path, got ${target}` }] };
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    return { content: [{ type: 'text', text: `note written to ${target}` }] };
  },
);

server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`note-writer MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
