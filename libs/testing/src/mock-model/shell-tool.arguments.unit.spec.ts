import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolOffer } from './conversation.types';
import { buildShellArguments, commandField, findShellTool, writeFileCommand } from './shell-tool.arguments';

const tool = (name: string, properties: { [key: string]: unknown }, required: string[] = []): ToolOffer => ({
  kind: 'function',
  name,
  parameters: { type: 'object', properties, required },
});

describe('findShellTool', () => {
  it('prefers a well-known shell name over other tools that take a command', () => {
    const tools = [tool('SlashCommand', { command: { type: 'string' } }), tool('Read', { file_path: { type: 'string' } }), tool('Bash', { command: { type: 'string' } })];
    expect(findShellTool(tools)?.name).toBe('Bash');
  });

  it('accepts any function tool with a command or cmd parameter, and the built-in local_shell', () => {
    expect(findShellTool([tool('run_it', { cmd: { type: 'array', items: { type: 'string' } } })])?.name).toBe('run_it');
    expect(findShellTool([{ kind: 'local-shell', name: 'local_shell', parameters: undefined }])?.name).toBe('local_shell');
    expect(findShellTool([tool('Read', { file_path: { type: 'string' } })])).toBeUndefined();
  });

  it('reads the command form from unions', () => {
    expect(commandField({ properties: { command: { anyOf: [{ type: 'array' }, { type: 'string' }] } } })).toEqual({ name: 'command', form: 'string' });
  });
});

describe('buildShellArguments', () => {
  it('fills required extras (OpenCode bash wants a description)', () => {
    const opencodeBash = tool('bash', { command: { type: 'string' }, timeout: { type: 'number' }, description: { type: 'string' } }, ['command', 'description']);
    expect(buildShellArguments(opencodeBash, 'ls')).toEqual({ command: 'ls', description: 'Mock model tool call' });
  });

  it('gives local_shell an argv', () => {
    expect(buildShellArguments({ kind: 'local-shell', name: 'local_shell', parameters: undefined }, 'ls')).toEqual({ command: ['bash', '-lc', 'ls'] });
  });
});

describe('writeFileCommand', () => {
  it('writes exactly the content, quotes and all, when a real shell runs it', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'mock-model-'));
    try {
      const target = path.join(directory, "it's here.txt");
      const content = `a 'quoted' "double" $HOME \\ line`;
      execFileSync('bash', ['-lc', writeFileCommand(target, content)]);
      expect(readFileSync(target, 'utf8')).toBe(content);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
