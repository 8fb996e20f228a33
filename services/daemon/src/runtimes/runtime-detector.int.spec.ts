import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectRuntimes, findOnPath } from './runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES, parseVersion } from './runtime-identities';

async function fakeCli(directory: string, name: string, script: string): Promise<void> {
  const file = path.join(directory, name);
  await writeFile(file, `#!/bin/sh\n${script}\n`);
  await chmod(file, 0o755);
}

describe('runtime detection', () => {
  let bin: string;
  let home: string;
  beforeEach(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'switchyard-fake-clis-'));
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-probe-home-'));
  });
  afterEach(async () => {
    await rm(bin, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('registers a CLI that answers its version, and reports each one that cannot be used and why', async () => {
    await fakeCli(bin, 'claude', 'echo "2.1.197 (Claude Code)"');
    await fakeCli(bin, 'codex', 'exec /bin/sleep 30');
    await fakeCli(bin, 'gemini', 'echo "boom" >&2; exit 3');

    const report = await detectRuntimes({ daemonId: 'daemon-7', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, probeTimeoutMs: 500 });

    expect(report.detected.map((runtime) => [runtime.runtimeId, runtime.version, runtime.executablePath])).toEqual([
      ['daemon-7-claude-code', '2.1.197', path.join(bin, 'claude')],
    ]);
    const unusable = report.missing.filter((missing) => missing.reason !== 'not_on_path');
    expect(unusable.map((missing) => [missing.identity, missing.reason])).toEqual([
      ['codex', 'version_probe_timed_out'],
      ['gemini-cli', 'version_probe_failed'],
    ]);
    // Every other built-in identity is reported too, as absent.
    expect(report.missing.length + report.detected.length).toBe(BUILT_IN_RUNTIME_IDENTITIES.length);
    expect(report.missing.find((missing) => missing.identity === 'gemini-cli')?.detail).toContain('boom');
  });

  it('reports CLIs absent from PATH, and one whose version cannot be read', async () => {
    await fakeCli(bin, 'codex', 'echo "codex, version unknown"');
    const report = await detectRuntimes({ daemonId: 'daemon-7', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, probeTimeoutMs: 2_000 });
    expect(report.detected).toEqual([]);
    const reasons = new Map(report.missing.map((missing) => [missing.identity, missing.reason]));
    expect(reasons.get('codex')).toBe('version_unreadable');
    expect(reasons.get('claude-code')).toBe('not_on_path');
    expect(reasons.get('gemini-cli')).toBe('not_on_path');
    expect([...reasons.values()].filter((reason) => reason !== 'not_on_path')).toEqual(['version_unreadable']);
  });

  it('probes with only the environment it is given, never the daemon own', async () => {
    process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'] = 'must-not-leak';
    try {
      await fakeCli(bin, 'claude', 'if [ -n "$SWITCHYARD_DAEMON_SECRET_FOR_TEST" ]; then echo leaked; exit 9; fi; echo "2.1.197 (Claude Code)"');
      const report = await detectRuntimes({ daemonId: 'd', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, probeTimeoutMs: 2_000 });
      expect(report.detected.map((runtime) => runtime.version)).toEqual(['2.1.197']);
    } finally {
      delete process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'];
    }
  });

  it('finds the first executable on PATH, skipping files that are not executable', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'switchyard-fake-clis-'));
    try {
      await writeFile(path.join(bin, 'claude'), 'not executable');
      await fakeCli(other, 'claude', 'echo 1.0.0');
      expect(await findOnPath('claude', [bin, other].join(path.delimiter))).toBe(path.join(other, 'claude'));
      expect(await findOnPath('claude', bin)).toBeUndefined();
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('reads versions from the real CLIs output formats', () => {
    expect(parseVersion('2.1.197 (Claude Code)')).toBe('2.1.197');
    expect(parseVersion('codex-cli 0.171.0')).toBe('0.171.0');
    expect(parseVersion('0.61.0\n')).toBe('0.61.0');
    expect(parseVersion('1.2.3-beta.4')).toBe('1.2.3-beta.4');
    expect(parseVersion('no version here')).toBeUndefined();
  });
});
