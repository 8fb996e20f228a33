import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer, WorkDirectoryFiles } from './mcp-server.types';

/** One server of each kind, as the daemon's neutral-config parser hands them over (sorted by name). */
export const SAMPLE_MCP_SERVERS: McpServer[] = [
  { kind: 'http', name: 'docs', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
  { kind: 'sse', name: 'events', url: 'https://events.example.com/sse', headers: {} },
  { kind: 'stdio', name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
];

/** Plain files under `root` for the writers' tests (the daemon's own port adds its path guard). */
export function plainWorkDirectoryFiles(root: string): WorkDirectoryFiles {
  return {
    read: async (relativePath) => {
      try {
        return await readFile(path.join(root, relativePath));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    writeIfChanged: async (relativePath, content, mode) => {
      const target = path.join(root, relativePath);
      const existing = await readFile(target, 'utf8').catch(() => undefined);
      if (existing === content) return { path: target, changed: false };
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content, { mode });
      return { path: target, changed: true };
    },
  };
}
