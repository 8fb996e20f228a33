import { decodeSkillBundle, skillContentHash, workspaceSkillsObjectStore } from '@switchyard/contracts';
import { readObject } from '@switchyard/messaging';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

describe('skill distribution at enqueue (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let agentId: string;
  const review = { 'SKILL.md': '---\nname: review\n---\nReview.\n' };

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    // Beta's skill of the same name must never reach Alpha's tasks.
    await kit.as(beta.token).post('/api/skills', { name: 'review', files: { 'SKILL.md': 'Beta’s review.' } });
    await kit.as(alpha.token).post('/api/skills', { name: 'review', files: review });
    agentId = (await kit.as(alpha.token).post('/api/agents', { name: 'Reviewer', runtimeId, skills: ['missing', 'review'] })).body.id as string;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  const enqueueTask = async (): Promise<{ skills: string[]; skillVersions: Array<{ name: string; hash: string }> }> => {
    expect((await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Review it' })).status).toBe(201);
    return queue.enqueued.at(-1)!.payload.agent;
  };

  const readVersion = (workspaceId: string, hash: string): ReturnType<typeof readObject> =>
    readObject(kit.messaging, { bucket: workspaceSkillsObjectStore(workspaceId).name, name: hash, maxBytes: 1024 * 1024 });

  it('resolves the agent’s skills of its own workspace to their current versions and stores each in that workspace’s bucket first', async () => {
    const agent = await enqueueTask();
    expect(agent.skills).toEqual(['missing', 'review']);
    expect(agent.skillVersions).toEqual([{ name: 'review', hash: skillContentHash(review) }]);
    const stored = await readVersion(alpha.id, skillContentHash(review));
    if (stored.kind !== 'found') throw new Error(`the version is not in the object store: ${stored.kind}`);
    expect(decodeSkillBundle(stored.data).files).toEqual(review);
  });

  it('creates a workspace’s bucket on its first distribution only: nothing of Alpha’s is in Beta’s, which no task of Beta’s has made', async () => {
    await expect(readVersion(beta.id, skillContentHash(review))).rejects.toThrow(/stream not found/);
  });

  it('stores a version of Beta’s in Beta’s bucket, never in Alpha’s', async () => {
    const betaRuntimeId = (await kit.registerRuntime(beta.id)).runtimeId;
    const betaAgentId = (await kit.as(beta.token).post('/api/agents', { name: 'Beta reviewer', runtimeId: betaRuntimeId, skills: ['review'] })).body.id as string;
    expect((await kit.as(beta.token).post('/api/tasks', { agentId: betaAgentId, prompt: 'Review it' })).status).toBe(201);
    const betaHash = skillContentHash({ 'SKILL.md': 'Beta’s review.' });
    expect(queue.enqueued.at(-1)!.payload.agent.skillVersions).toEqual([{ name: 'review', hash: betaHash }]);
    await expect(readVersion(beta.id, betaHash)).resolves.toMatchObject({ kind: 'found' });
    await expect(readVersion(alpha.id, betaHash)).resolves.toEqual({ kind: 'missing' });
  });

  it('ships the new version to the next task after a change, and nothing once the skill is deleted', async () => {
    const [skill] = (await kit.as(alpha.token).get('/api/skills')).body.skills as Array<{ id: string }>;
    const changed = { 'SKILL.md': '---\nname: review\n---\nReview twice.\n' };
    await kit.as(alpha.token).patch(`/api/skills/${skill!.id}`, { files: changed });
    expect((await enqueueTask()).skillVersions).toEqual([{ name: 'review', hash: skillContentHash(changed) }]);

    await kit.as(alpha.token).delete(`/api/skills/${skill!.id}`);
    expect((await enqueueTask()).skillVersions).toEqual([]);
    // A task created before the delete still finds the version it names.
    await expect(readVersion(alpha.id, skillContentHash(changed))).resolves.toMatchObject({ kind: 'found' });
  });
});
