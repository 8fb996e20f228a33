import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES, type RuntimeIdentity } from '../runtimes/runtime-identities';
import { BackendCatalog } from './backend.catalog';

const detected = (identity: RuntimeIdentity): DetectedRuntime => ({ runtimeId: `d-${identity.identity}`, identity, executablePath: `/bin/${identity.commandName}`, version: '1.0.0', models: [] });
const builtIn = (name: string): RuntimeIdentity => BUILT_IN_RUNTIME_IDENTITIES.find((identity) => identity.identity === name)!;
const profile = (protocolFamily: RuntimeIdentity['protocolFamily']): RuntimeIdentity => ({
  identity: 'profile-p',
  displayName: 'P',
  commandName: 'p',
  protocolFamily,
  provider: null,
  versionArgs: ['--version'],
  modelDiscovery: null,
  profile: { profileId: 'p', fixedArgs: [] },
});

describe('backend catalog', () => {
  const catalog = new BackendCatalog();

  it('gives each built-in CLI its own backend', () => {
    for (const name of ['claude-code', 'codex', 'gemini-cli']) expect(catalog.supports(detected(builtIn(name)))).toBe(true);
  });

  it('drives every ACP identity of the runtime catalog with the shared ACP client', () => {
    const acpIdentities = BUILT_IN_RUNTIME_IDENTITIES.filter((identity) => identity.protocolFamily === 'acp');
    expect(acpIdentities.map((identity) => identity.identity)).toEqual(expect.arrayContaining(['hermes', 'kimi', 'kiro', 'qoder', 'trae', 'grok', 'qwenpaw']));
    for (const identity of acpIdentities) expect(catalog.supports(detected(identity))).toBe(true);
  });

  it('gives a profile the plain backend of its family, not the Gemini-specific one', () => {
    const acpProfile = catalog.backendFor(detected(profile('acp')));
    expect(acpProfile).toBeDefined();
    expect(acpProfile).not.toBe(catalog.backendFor(detected(builtIn('gemini-cli'))));
    expect(catalog.supports(detected(profile('claude-stream-json')))).toBe(true);
  });

  it('drives every built-in identity and every family a profile may name', () => {
    for (const identity of BUILT_IN_RUNTIME_IDENTITIES) expect([identity.identity, catalog.supports(detected(identity))]).toEqual([identity.identity, true]);
    for (const family of PROTOCOL_FAMILIES) expect([family, catalog.supports(detected(profile(family)))]).toEqual([family, true]);
  });

  it('builds one backend per runtime and detected version', () => {
    const opencode = detected(builtIn('opencode'));
    expect(catalog.backendFor(opencode)).toBe(catalog.backendFor(opencode));
    expect(catalog.backendFor({ ...opencode, version: '1.1.65' })).not.toBe(catalog.backendFor(opencode));
  });
});
