import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeSkillBundle, skillContentHash, workspaceSkillsObjectStore } from '@switchyard/contracts';
import { provisionObjectStores, putObjectIfAbsent, type MessagingConnection } from '@switchyard/messaging';
import { connectTestMessaging, uniqueNamespace } from '@switchyard/testing';
import { createTemporaryDirectory } from './exec-env.spec-helper';
import { installSkills } from './skills.installer';
import { skillContentFromStore, skillsCacheDirectoryOf } from './skill-content.store';

const WORKSPACE_ID = 'ws-skills-store';
const BUCKET = workspaceSkillsObjectStore(WORKSPACE_ID).name;
const OTHER_WORKSPACE_ID = 'ws-skills-other';
const daemonIdentity = { kind: 'daemon', daemonId: 'skills-store-daemon', workspaceId: WORKSPACE_ID } as const;
const review = { 'SKILL.md': '---\nname: review\n---\nReview carefully.\n', 'checklist.md': '- tests\n' };
const reviewHash = skillContentHash(review);

/** The daemon's side of skill distribution on the real (operator-mode) bus, as a daemon identity. */
describe('skill contents from the skills object store', () => {
  const namespace = uniqueNamespace();
  let gateway: MessagingConnection;
  let daemon: MessagingConnection;
  let home: { path: string; remove: () => Promise<void> };

  const provider = (versions: Array<{ name: string; hash: string }>, connection = daemon) =>
    skillContentFromStore({ connection, cacheDirectory: skillsCacheDirectoryOf(path.join(home.path, 'workspaces')), workspaceId: WORKSPACE_ID, versions });

  beforeAll(async () => {
    gateway = await connectTestMessaging({ name: 'skills-store-gateway', namespace, identity: { kind: 'service', name: 'gateway' } });
    daemon = await connectTestMessaging({ name: 'skills-store-daemon', namespace, identity: daemonIdentity, requestTimeoutMs: 2_000 });
    await provisionObjectStores(gateway, [workspaceSkillsObjectStore(WORKSPACE_ID), workspaceSkillsObjectStore(OTHER_WORKSPACE_ID)]);
    await putObjectIfAbsent(gateway, { bucket: BUCKET, name: reviewHash, data: encodeSkillBundle(review) });
  });
  afterAll(async () => {
    await daemon?.close();
    await gateway?.close();
  });
  beforeEach(async () => {
    home = await createTemporaryDirectory();
  });
  afterEach(() => home.remove());

  it('fetches the version the claim names, verifies it and caches it by hash under the daemon home', async () => {
    await expect(provider([{ name: 'review', hash: reviewHash }])('review')).resolves.toEqual({ files: review });
    const cached = path.join(home.path, 'skills-cache', `${reviewHash}.json`);
    expect(JSON.parse(await readFile(cached, 'utf8'))).toEqual({ files: review });
  });

  it('serves a cached version without the bus, and fetches again over a damaged cache entry', async () => {
    await provider([{ name: 'review', hash: reviewHash }])('review');
    const closed = await connectTestMessaging({ name: 'skills-store-closed', namespace, identity: daemonIdentity });
    await closed.close();
    await expect(provider([{ name: 'review', hash: reviewHash }], closed)('review')).resolves.toEqual({ files: review });

    const cached = path.join(home.path, 'skills-cache', `${reviewHash}.json`);
    await writeFile(cached, JSON.stringify({ files: { 'SKILL.md': 'tampered' } }));
    await expect(provider([{ name: 'review', hash: reviewHash }])('review')).resolves.toEqual({ files: review });
    expect(JSON.parse(await readFile(cached, 'utf8'))).toEqual({ files: review });
  });

  it('says not found for a name the claim has no version of', async () => {
    await expect(provider([{ name: 'review', hash: reviewHash }])('other')).resolves.toBeUndefined();
  });

  it('reports a version missing from the store, and content that does not hash to its name, as unavailable with the reason', async () => {
    const absent = 'e'.repeat(64);
    const lying = skillContentHash({ 'SKILL.md': 'what the task expects' });
    await putObjectIfAbsent(gateway, { bucket: BUCKET, name: lying, data: encodeSkillBundle({ 'SKILL.md': 'something else' }) });
    const skills = provider([
      { name: 'gone', hash: absent },
      { name: 'lying', hash: lying },
    ]);
    await expect(skills('gone')).resolves.toEqual({ unavailable: 'content_unavailable', detail: expect.stringContaining(absent) });
    await expect(skills('lying')).resolves.toEqual({ unavailable: 'hash_mismatch', detail: expect.stringContaining(lying) });
  });

  it('reads only its own workspace’s bucket: a version stored for another workspace is not there for it', async () => {
    const others = { 'SKILL.md': 'Another workspace’s rules.\n' };
    await putObjectIfAbsent(gateway, { bucket: workspaceSkillsObjectStore(OTHER_WORKSPACE_ID).name, name: skillContentHash(others), data: encodeSkillBundle(others) });
    await expect(provider([{ name: 'others', hash: skillContentHash(others) }])('others')).resolves.toEqual({
      unavailable: 'content_unavailable',
      detail: expect.stringContaining('is not in the skills store'),
    });
  });

  it('says why when its credentials name no workspace: the bus refuses the read, and the skill is skipped as access_refused', async () => {
    const stranger = await connectTestMessaging({ name: 'skills-store-stranger', namespace, identity: { kind: 'daemon', daemonId: 'skills-store-stranger' }, requestTimeoutMs: 2_000 });
    try {
      await expect(provider([{ name: 'review', hash: reviewHash }], stranger)('review')).resolves.toEqual({
        unavailable: 'access_refused',
        detail: expect.stringMatching(new RegExp(`grant no read of workspace ${WORKSPACE_ID}'s skills .*enroll the daemon again .*Permissions Violation`)),
      });
    } finally {
      await stranger.close();
    }
  });

  it('installs the good skill and skips the others with their reasons, without failing the run', async () => {
    const workDirectory = path.join(home.path, 'work');
    await mkdir(workDirectory);
    const result = await installSkills({
      workDirectory,
      target: { protocolFamily: 'claude-stream-json' },
      skillNames: ['review', 'gone'],
      provideSkill: provider([
        { name: 'review', hash: reviewHash },
        { name: 'gone', hash: 'd'.repeat(64) },
      ]),
    });
    expect(result.installed.map((skill) => skill.name)).toEqual(['review']);
    expect(result.skipped).toEqual([{ name: 'gone', reason: 'content_unavailable', detail: expect.any(String) }]);
    expect(await readFile(path.join(workDirectory, '.claude', 'skills', 'review', 'checklist.md'), 'utf8')).toBe('- tests\n');
  });
});
