import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { runtimeLayoutFor } from '@switchyard/agent-adapters/wing';
import { CONTEXT_BLOCK_BEGIN as BEGIN, CONTEXT_BLOCK_END as END, writeContextFile } from './context-file.writer';
import { createTemporaryDirectory } from './exec-env.spec-helper';

describe('writeContextFile', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
  });
  afterEach(() => temporary.remove());

  it.each([
    [{ protocolFamily: 'claude-stream-json' }, 'CLAUDE.md'],
    [{ protocolFamily: 'claude-stream-json', identity: 'qwen-code' }, 'QWEN.md'],
    [{ protocolFamily: 'claude-stream-json', identity: 'codebuddy' }, 'CODEBUDDY.md'],
    [{ protocolFamily: 'codex-app-server' }, 'AGENTS.md'],
    [{ protocolFamily: 'opencode-ndjson' }, 'AGENTS.md'],
    [{ protocolFamily: 'pi-json' }, 'AGENTS.md'],
    [{ protocolFamily: 'acp', identity: 'gemini-cli' }, 'GEMINI.md'],
    [{ protocolFamily: 'acp', identity: 'hermes' }, 'AGENTS.md'],
  ] as const)('names the file per CLI: %j -> %s', async (target, fileName) => {
    const result = await writeContextFile({ workDirectory: temporary.path, target, body: 'body' });
    expect(result).toMatchObject({ fileName, status: 'created', path: path.join(temporary.path, fileName) });
    expect(await readFile(result.path, 'utf8')).toBe(`${BEGIN}\nbody\n${END}\n`);
  });

  it('has a context file name for every protocol family', () => {
    for (const protocolFamily of PROTOCOL_FAMILIES) expect(runtimeLayoutFor({ protocolFamily }).contextFileName).toMatch(/^[A-Z]+\.md$/);
  });

  it('keeps user text byte for byte, and a second identical write does not touch the file', async () => {
    const filePath = path.join(temporary.path, 'CLAUDE.md');
    const user = '# Team rules\r\n\r\nUse tabs. \u2603\n';
    await writeFile(filePath, user);
    const target = { protocolFamily: 'claude-stream-json' } as const;

    const first = await writeContextFile({ workDirectory: temporary.path, target, body: 'task 1' });
    const afterFirst = await readFile(filePath);
    const modifiedAt = (await stat(filePath)).mtimeMs;
    const second = await writeContextFile({ workDirectory: temporary.path, target, body: 'task 1' });
    const modifiedAtAfterSecond = (await stat(filePath)).mtimeMs;
    await writeFile(filePath, `${(await readFile(filePath, 'utf8'))}\nNotes added by the agent.\n`);
    const third = await writeContextFile({ workDirectory: temporary.path, target, body: 'task 2' });

    expect([first.status, second.status, third.status]).toEqual(['appended', 'unchanged', 'replaced']);
    expect(afterFirst.toString('utf8')).toBe(`${user}\n${BEGIN}\ntask 1\n${END}\n`);
    expect(modifiedAtAfterSecond).toBe(modifiedAt);
    expect(await readFile(filePath, 'utf8')).toBe(`${user}\n${BEGIN}\ntask 2\n${END}\n\nNotes added by the agent.\n`);
  });

  it('refuses to write through a symlinked context file', async () => {
    const outside = path.join(temporary.path, 'outside.txt');
    const workDirectory = path.join(temporary.path, 'work');
    await writeFile(outside, 'precious');
    await mkdir(workDirectory);
    await symlink(outside, path.join(workDirectory, 'AGENTS.md'));

    await expect(writeContextFile({ workDirectory, target: { protocolFamily: 'codex-app-server' }, body: 'x' })).rejects.toMatchObject({ code: 'unsafe_path' });
    expect(await readFile(outside, 'utf8')).toBe('precious');
  });
});
