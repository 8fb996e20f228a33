import type { LaunchTarget } from '../family-kit/family-wing.types';

// Counts the ACP SDK's loads: the wing must not require it before an ACP runtime is driven.
let mockAcpSdkLoads = 0;
jest.mock('@agentclientprotocol/sdk', () => {
  mockAcpSdkLoads += 1;
  return jest.requireActual<object>('@agentclientprotocol/sdk');
});

const target = (protocolFamily: LaunchTarget['protocolFamily'], identity: string | null): LaunchTarget => ({ protocolFamily, identity, version: '1.0.0', executablePath: '/bin/cli' });

describe('family wings load on first use', () => {
  it('leaves the ACP SDK out of the wing and of other families, and loads it with the first ACP backend', () => {
    const wing = jest.requireActual<typeof import('./index')>('./index');
    expect(mockAcpSdkLoads).toBe(0);

    expect(wing.supportsRuntime(target('acp', 'gemini-cli'))).toBe(true);
    expect(wing.runtimeLayoutFor(target('acp', 'gemini-cli')).contextFileName).toBe('GEMINI.md');
    expect(wing.backendFor(target('claude-stream-json', 'claude-code'))).toBeDefined();
    expect(wing.backendFor(target('opencode-ndjson', null))).toBeDefined();
    expect(mockAcpSdkLoads).toBe(0);

    expect(wing.backendFor(target('acp', 'gemini-cli'))).toBeDefined();
    expect(mockAcpSdkLoads).toBe(1);
  });
});
