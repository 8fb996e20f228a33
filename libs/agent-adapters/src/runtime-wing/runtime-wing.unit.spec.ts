import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { RUNTIME_IDENTITY_CATALOG } from '../catalog/runtime-identity.catalog';
import type { LaunchTarget } from '../family-kit/family-wing.types';
import { backendFor, prepareLaunchEnvironment, supportsRuntime } from './runtime-wing';

const target = (protocolFamily: LaunchTarget['protocolFamily'], identity: string | null, version = '1.0.0'): LaunchTarget => ({ protocolFamily, identity, version, executablePath: '/bin/cli' });
const agent = { env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-test' }, model: 'mock-model' };

describe('the runtime wing', () => {
  it('drives every built-in identity and every family a profile may name', () => {
    for (const descriptor of RUNTIME_IDENTITY_CATALOG) {
      const builtIn = target(descriptor.protocolFamily, descriptor.identity);
      expect([descriptor.identity, supportsRuntime(builtIn), backendFor(builtIn) !== undefined]).toEqual([descriptor.identity, true, true]);
    }
    for (const family of PROTOCOL_FAMILIES) expect([family, backendFor(target(family, null)) !== undefined]).toEqual([family, true]);
  });

  it('drives no identity it does not know, nor one named under another family', () => {
    expect(supportsRuntime(target('acp', 'not-a-cli'))).toBe(false);
    expect(backendFor(target('acp', 'not-a-cli'))).toBeUndefined();
    expect(supportsRuntime(target('acp', 'claude-code'))).toBe(false);
  });

  describe('launch environment', () => {
    let home: string;
    beforeEach(async () => {
      home = await mkdtemp(path.join(tmpdir(), 'switchyard-wing-launch-'));
    });
    afterEach(() => rm(home, { recursive: true, force: true }));
    const prepare = (launchTarget: LaunchTarget) => prepareLaunchEnvironment({ target: launchTarget, agent, home });

    it('turns Claude Code (and a profile of its family) unattended and quiet', async () => {
      for (const claude of [target('claude-stream-json', 'claude-code'), target('claude-stream-json', null)]) {
        await expect(prepare(claude)).resolves.toMatchObject({ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' });
      }
    });

    it('gives Qwen Code its settings in the runtime HOME and the agent provider as model variables', async () => {
      await expect(prepare(target('claude-stream-json', 'qwen-code'))).resolves.toEqual({
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'mock-model',
        QWEN_CODE_NO_RELAUNCH: 'true',
      });
      expect(JSON.parse(await readFile(path.join(home, '.qwen/settings.json'), 'utf8'))).toMatchObject({ telemetry: { enabled: false } });
    });

    it('writes Gemini CLI its settings; other ACP agents and profiles bring their own', async () => {
      await expect(prepare(target('acp', 'gemini-cli'))).resolves.toEqual({ GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
      expect(JSON.parse(await readFile(path.join(home, '.gemini/settings.json'), 'utf8'))).toMatchObject({ telemetry: { enabled: false } });
      await expect(prepare(target('acp', 'kimi'))).resolves.toEqual({});
      await expect(prepare(target('acp', null))).resolves.toEqual({});
    });

    it('points Copilot CLI offline at the agent provider, not a profile of its family', async () => {
      await expect(prepare(target('copilot-jsonl', 'copilot'))).resolves.toMatchObject({ COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1', COPILOT_MODEL: 'mock-model', COPILOT_PROVIDER_API_KEY: 'sk-test' });
      await expect(prepare(target('copilot-jsonl', null))).resolves.toEqual({});
    });

    it('gives Pi and omp their provider in their own agent directory', async () => {
      await expect(prepare(target('pi-json', 'pi'))).resolves.toMatchObject({ PI_CODING_AGENT_DIR: path.join(home, '.pi/agent') });
      await expect(prepare(target('pi-json', 'omp'))).resolves.toMatchObject({ PI_CODING_AGENT_DIR: path.join(home, '.omp/agent') });
    });

    it('needs nothing around OpenClaw, DSH and Antigravity', async () => {
      for (const family of ['openclaw-jsonl', 'dsh-jsonl', 'antigravity-json'] as const) await expect(prepare(target(family, null))).resolves.toEqual({});
    });
  });
});
