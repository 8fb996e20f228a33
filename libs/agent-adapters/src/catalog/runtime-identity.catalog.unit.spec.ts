import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { familyLayout, PROTOCOL_FAMILY_CATALOG, RUNTIME_IDENTITY_CATALOG, runtimeIdentityDescriptor, runtimeLayoutFor, sessionStoreLayoutFor } from './runtime-identity.catalog';

describe('the runtime catalog', () => {
  it('has one entry per family, from that family, in the contracts’ order', () => {
    expect(Object.keys(PROTOCOL_FAMILY_CATALOG).sort()).toEqual([...PROTOCOL_FAMILIES].sort());
    for (const family of PROTOCOL_FAMILIES) {
      expect(PROTOCOL_FAMILY_CATALOG[family].family).toBe(family);
      expect(PROTOCOL_FAMILY_CATALOG[family].identities.map((identity) => identity.protocolFamily)).toEqual(PROTOCOL_FAMILY_CATALOG[family].identities.map(() => family));
    }
    expect(RUNTIME_IDENTITY_CATALOG.map((identity) => identity.protocolFamily)).toEqual([...RUNTIME_IDENTITY_CATALOG.map((identity) => identity.protocolFamily)].sort((left, right) => PROTOCOL_FAMILIES.indexOf(left) - PROTOCOL_FAMILIES.indexOf(right)));
  });

  it('names each identity and each command once', () => {
    const ids = RUNTIME_IDENTITY_CATALOG.map((identity) => identity.identity);
    const commands = RUNTIME_IDENTITY_CATALOG.map((identity) => identity.commandName);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(commands).size).toBe(commands.length);
    // A profile's runtime is `profile-<id>`: no built-in may look like one.
    expect(ids.filter((id) => id.startsWith('profile-'))).toEqual([]);
  });

  it('gives every ACP identity its ACP subcommand and documented resume method', () => {
    for (const identity of PROTOCOL_FAMILY_CATALOG.acp.identities) {
      expect([identity.identity, identity.launchArgs.length > 0, identity.acpResumeMethod]).toEqual([identity.identity, true, expect.stringMatching(/^session\/(resume|load)$/)]);
    }
  });

  it('names every identity proven on its real CLI in its family’s "tested with"', () => {
    for (const identity of RUNTIME_IDENTITY_CATALOG.filter((descriptor) => descriptor.verification === 'real-cli')) {
      expect(PROTOCOL_FAMILY_CATALOG[identity.protocolFamily].description.testedWith).toContain(identity.displayName);
    }
  });

  it('lays out a profile’s command, or an identity named under another family, as its family does', () => {
    expect(runtimeLayoutFor({ protocolFamily: 'claude-stream-json', identity: 'qwen-code' })).toMatchObject({ contextFileName: 'QWEN.md', mcpDelivery: 'qwen-config-file', settingsFile: null });
    expect(runtimeLayoutFor({ protocolFamily: 'claude-stream-json', identity: null })).toEqual(familyLayout('claude-stream-json'));
    expect(runtimeLayoutFor({ protocolFamily: 'acp', identity: 'qwen-code' })).toEqual(familyLayout('acp'));
    expect(sessionStoreLayoutFor({ protocolFamily: 'claude-stream-json', identity: null })).toBeNull();
    expect(sessionStoreLayoutFor({ protocolFamily: 'claude-stream-json', identity: 'claude-code' })).toEqual(runtimeIdentityDescriptor('claude-code')?.sessionStore);
  });
});
