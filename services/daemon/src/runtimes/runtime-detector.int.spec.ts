import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectRuntimes, findOnPath } from './runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES, parseVersion, type RuntimeIdentity } from './runtime-identities';

async function fakeCli(directory: string, name: string, script: string): Promise<void> {
  const file = path.join(directory, name);
  await writeFile(file, `#!/bin/sh\n${script}\n`);
  await chmod(file, 0o755);
}

const opencode = BUILT_IN_RUNTIME_IDENTITIES.find((identity) => identity.identity === 'opencode')!;

/** An OpenCode-like identity under another command name, to probe several fake CLIs in one detection. */
const listsModels = (commandName: string): RuntimeIdentity => ({ ...opencode, identity: commandName, commandName });

/** A fake CLI that prints its version, and runs `onModels` when asked `models`. */
const modelCli = (onModels: string): string => `case "$1" in --version) echo "1.18.33";; models) ${onModels};; *) exit 64;; esac`;

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

    const report = await detectRuntimes({ daemonId: 'daemon-7', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 500 });

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
    const report = await detectRuntimes({ daemonId: 'daemon-7', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 2_000 });
    expect(report.detected).toEqual([]);
    const reasons = new Map(report.missing.map((missing) => [missing.identity, missing.reason]));
    expect(reasons.get('codex')).toBe('version_unreadable');
    expect(reasons.get('claude-code')).toBe('not_on_path');
    expect(reasons.get('gemini-cli')).toBe('not_on_path');
    expect([...reasons.values()].filter((reason) => reason !== 'not_on_path')).toEqual(['version_unreadable']);
  });

  it('reads a version printed on stderr (Pi does)', async () => {
    await fakeCli(bin, 'pi', 'echo "0.73.1" >&2');
    const report = await detectRuntimes({ daemonId: 'daemon-7', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 2_000 });
    expect(report.detected.map((runtime) => [runtime.runtimeId, runtime.version])).toEqual([['daemon-7-pi', '0.73.1']]);
  });

  it('probes with only the environment it is given, never the daemon own', async () => {
    process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'] = 'must-not-leak';
    try {
      await fakeCli(bin, 'claude', 'if [ -n "$SWITCHYARD_DAEMON_SECRET_FOR_TEST" ]; then echo leaked; exit 9; fi; echo "2.1.197 (Claude Code)"');
      const report = await detectRuntimes({ daemonId: 'd', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 2_000 });
      expect(report.detected.map((runtime) => runtime.version)).toEqual(['2.1.197']);
    } finally {
      delete process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'];
    }
  });

  it('asks a CLI that can list its models for them, with the isolated probe environment', async () => {
    process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'] = 'must-not-leak';
    try {
      await fakeCli(bin, 'opencode', modelCli('if [ -n "$SWITCHYARD_DAEMON_SECRET_FOR_TEST" ]; then exit 9; fi; printf "anthropic/claude-sonnet-4-5\\n\\n  openai/gpt-5.1-codex \\nanthropic/claude-sonnet-4-5\\nopenrouter/qwen/qwen3-coder:free\\n"'));
      await fakeCli(bin, 'claude', 'echo "2.1.197 (Claude Code)"');

      const report = await detectRuntimes({ daemonId: 'd', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 2_000 });

      expect(report.detected.map((runtime) => [runtime.runtimeId, runtime.models])).toEqual([
        ['d-claude-code', []],
        ['d-opencode', ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.1-codex', 'openrouter/qwen/qwen3-coder:free']],
      ]);
      expect(report.modelDiscovery).toEqual([]);
    } finally {
      delete process.env['SWITCHYARD_DAEMON_SECRET_FOR_TEST'];
    }
  });

  it('registers a runtime with no models when its model discovery fails, hangs, prints none or prints noise', async () => {
    await fakeCli(bin, 'lists-fails', modelCli('echo "not logged in" >&2; exit 3'));
    await fakeCli(bin, 'lists-hangs', modelCli('exec /bin/sleep 30'));
    await fakeCli(bin, 'lists-nothing', modelCli('true'));
    await fakeCli(bin, 'lists-some', modelCli('printf "Available models\\na/one\\nnot a model\\n"'));
    const identities = ['lists-fails', 'lists-hangs', 'lists-nothing', 'lists-some'].map(listsModels);

    const report = await detectRuntimes({ daemonId: 'd', identities, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 1_000 });

    expect(report.missing).toEqual([]);
    expect(report.detected.map((runtime) => [runtime.runtimeId, runtime.version, runtime.models])).toEqual([
      ['d-lists-fails', '1.18.33', []],
      ['d-lists-hangs', '1.18.33', []],
      ['d-lists-nothing', '1.18.33', []],
      ['d-lists-some', '1.18.33', ['a/one']],
    ]);
    expect(report.modelDiscovery.map((note) => [note.runtimeId, note.outcome])).toEqual([
      ['d-lists-fails', 'failed'],
      ['d-lists-hangs', 'timed_out'],
      ['d-lists-nothing', 'empty'],
      ['d-lists-some', 'partial'],
    ]);
    const detailOf = (runtimeId: string): string | undefined => report.modelDiscovery.find((note) => note.runtimeId === runtimeId)?.detail;
    expect(detailOf('d-lists-fails')).toContain('not logged in');
    expect(detailOf('d-lists-fails')).toContain('exit 3');
    expect(detailOf('d-lists-some')).toContain('2 lines were not model ids');
  });

  it('gives each probe its identity\'s cache folder, and runs at most `concurrency` probes at once', async () => {
    // Each probe notes the cache it was given and how many probes were running when it started.
    const running = path.join(home, 'running');
    await mkdir(running);
    const probe = (name: string) =>
      fakeCli(bin, name, `echo "$XDG_CACHE_HOME" > "${home}/${name}.cache"; : > "${running}/${name}"; set -- "${running}"/*; echo $# > "${home}/${name}.seen"; /bin/sleep 0.3; /bin/rm "${running}/${name}"; echo 1.0.0`);
    await Promise.all(['claude', 'codex', 'gemini', 'qwen'].map(probe));

    const report = await detectRuntimes({ daemonId: 'd', identities: BUILT_IN_RUNTIME_IDENTITIES, searchPath: bin, home, cacheRoot: path.join(home, 'cache'), probeTimeoutMs: 5_000, concurrency: 2 });

    expect(report.detected.map((runtime) => runtime.identity.identity)).toEqual(['claude-code', 'codex', 'gemini-cli', 'qwen-code']);
    expect((await readFile(path.join(home, 'claude.cache'), 'utf8')).trim()).toBe(path.join(home, 'cache', 'claude-code'));
    const seen = await Promise.all(['claude', 'codex', 'gemini', 'qwen'].map(async (name) => Number(await readFile(path.join(home, `${name}.seen`), 'utf8'))));
    expect(Math.max(...seen)).toBeLessThanOrEqual(2);
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
