import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identityOfProfile, loadRuntimeProfiles, RuntimeProfileError } from './runtime-profiles.loader';

describe('runtime profiles file', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-profiles-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function fileWith(content: string): Promise<string> {
    const file = path.join(directory, 'profiles.json');
    await writeFile(file, content);
    return file;
  }

  it('reads profiles and turns each into a runtime identity with its fixed args', async () => {
    const file = await fileWith(JSON.stringify([{ profileId: 'kimi', displayName: 'Kimi', protocolFamily: 'acp', commandName: 'kimi', fixedArgs: ['acp'] }]));

    const [profile] = await loadRuntimeProfiles(file);

    expect(identityOfProfile(profile!)).toEqual({
      identity: 'profile-kimi',
      displayName: 'Kimi',
      commandName: 'kimi',
      protocolFamily: 'acp',
      provider: null,
      versionArgs: ['--version'],
      modelDiscovery: null,
      profile: { profileId: 'kimi', fixedArgs: ['acp'] },
    });
  });

  it('defaults fixed args to none', async () => {
    const file = await fileWith(JSON.stringify([{ profileId: 'wrapped', displayName: 'Wrapped', protocolFamily: 'claude-stream-json', commandName: 'my-claude' }]));
    expect((await loadRuntimeProfiles(file))[0]?.fixedArgs).toEqual([]);
  });

  it.each([
    ['an unknown protocol family', [{ profileId: 'x', displayName: 'X', protocolFamily: 'telepathy', commandName: 'x' }], /protocolFamily/],
    ['a path instead of a command name', [{ profileId: 'x', displayName: 'X', protocolFamily: 'acp', commandName: '/usr/bin/x' }], /bare command name/],
    ['shell text as the command', [{ profileId: 'x', displayName: 'X', protocolFamily: 'acp', commandName: 'x; rm -rf /' }], /bare command name/],
    ['a duplicate profile id', [1, 2].map(() => ({ profileId: 'x', displayName: 'X', protocolFamily: 'acp', commandName: 'x' })), /duplicate profile id x/],
    ['not a list', { profileId: 'x' }, /\(root\)/],
  ])('refuses %s with a clear error', async (_case, content, message) => {
    const file = await fileWith(JSON.stringify(content));
    const failure = loadRuntimeProfiles(file);
    await expect(failure).rejects.toBeInstanceOf(RuntimeProfileError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(message) });
  });

  it('refuses a file that is not JSON, and one that cannot be read', async () => {
    await expect(loadRuntimeProfiles(await fileWith('[{'))).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('not JSON') });
    await expect(loadRuntimeProfiles(path.join(directory, 'missing.json'))).rejects.toMatchObject({ code: 'unreadable' });
  });
});
