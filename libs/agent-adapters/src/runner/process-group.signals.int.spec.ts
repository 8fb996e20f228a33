import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { escapedDescendantGroups } from './escaped-descendants';
import { isProcessGroupAlive, killProcessGroup } from './process-group.signals';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const processGroupOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
};

/** A detached shell (its own group, as the runner spawns a CLI) whose child moved to a session of its own, as Claude Code's shell tool does. */
async function groupWithEscapedChild(): Promise<{ leader: number; escaped: number }> {
  const shell = spawn('/bin/sh', ['-c', 'setsid sleep 300 & echo $!; exec sleep 300'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const [chunk] = (await once(shell.stdout, 'data')) as [Buffer];
  shell.stdout.destroy();
  shell.unref();
  const escaped = Number(chunk.toString().trim());
  // `$!` is known before the child has called setsid(): wait until it leads its own group.
  while (processGroupOf(escaped) !== escaped) await new Promise((resolve) => setImmediate(resolve));
  return { leader: shell.pid as number, escaped };
}

describe('killing a run’s process group', () => {
  it('finds a descendant that escaped to a session of its own, and nothing outside the tree', async () => {
    const { leader, escaped } = await groupWithEscapedChild();
    try {
      expect(escapedDescendantGroups(leader)).toEqual([escaped]);
      expect(escapedDescendantGroups(process.pid)).not.toContain(escaped);
    } finally {
      await killProcessGroup({ processGroupId: leader, graceMs: 1_000 });
    }
  });

  it('ends the escaped descendant with the group', async () => {
    const { leader, escaped } = await groupWithEscapedChild();
    expect(isAlive(escaped)).toBe(true);

    const outcome = await killProcessGroup({ processGroupId: leader, graceMs: 1_000 });

    expect(outcome).toEqual({ forced: false, groupGone: true });
    expect(isProcessGroupAlive(leader)).toBe(false);
    expect(isProcessGroupAlive(escaped)).toBe(false);
  });
});
