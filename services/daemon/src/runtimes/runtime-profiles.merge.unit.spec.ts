import type { RuntimeProfile } from '@switchyard/contracts';
import { mergeRuntimeProfiles } from './runtime-profiles.merge';

const profile = (profileId: string, displayName: string, commandName = 'kimi'): RuntimeProfile => ({ profileId, displayName, protocolFamily: 'acp', commandName, fixedArgs: [] });

describe('mergeRuntimeProfiles', () => {
  it('offers both when the names differ, the local file first', () => {
    const merged = mergeRuntimeProfiles({ local: [profile('mine', 'Mine')], workspace: [profile('0193-a', 'Team Kimi')] });

    expect(merged.map((entry) => entry.profileId)).toEqual(['mine', '0193-a']);
  });

  it('lets a local profile with the same display name win, whatever the case', () => {
    const merged = mergeRuntimeProfiles({ local: [profile('kimi-here', 'team kimi', 'kimi-wrapper')], workspace: [profile('0193-a', 'Team Kimi')] });

    expect(merged).toEqual([profile('kimi-here', 'team kimi', 'kimi-wrapper')]);
  });

  it('lets a local profile with the same id win', () => {
    const merged = mergeRuntimeProfiles({ local: [profile('0193-a', 'Local')], workspace: [profile('0193-a', 'Remote')] });

    expect(merged).toEqual([profile('0193-a', 'Local')]);
  });

  it('offers the workspace’s alone when there is no local file', () => {
    expect(mergeRuntimeProfiles({ local: [], workspace: [profile('0193-a', 'Team Kimi')] })).toEqual([profile('0193-a', 'Team Kimi')]);
  });
});
