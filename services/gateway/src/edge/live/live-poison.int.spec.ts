import { createEvent } from '@switchyard/contracts';
import { publishNotice } from '@switchyard/messaging';
import { publishRawNotice } from '@switchyard/messaging/testing';
import { useLiveGateway } from './live-gateway.spec-helper';
import type { ServerFrame } from './live.frames';

const TOKEN = 'sy_live-poison-token-live-poison-token-01';

describe('gateway live workspace feed under poison notices (real NATS + Postgres)', () => {
  const bed = useLiveGateway({ token: TOKEN, taskPrefix: 'task-poison' });

  it('skips lifecycle and workspace notices that are not JSON, empty or off-contract, and goes on delivering', async () => {
    const taskId = await bed.newTask();
    const viewer = await bed.connect(TOKEN);
    viewer.send({ type: 'subscribe_workspace' });
    await viewer.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed_workspace'));

    // Core NATS publishes, as any client of the bus may send them.
    publishRawNotice(bed.bus, `task.completed.${taskId}`, 'not json {');
    publishRawNotice(bed.bus, `task.completed.${taskId}.x`, '');
    publishRawNotice(bed.bus, `task.started.${taskId}.x`, JSON.stringify({ type: 'task.started', payload: { taskId } }));
    // A well-formed event, but not the one its subject promises.
    const completed = createEvent({ type: 'task.completed', payload: { taskId, attempt: 1, sessionId: null, output: 'done', durationMs: 5, usage: [], repositories: [] } });
    publishNotice(bed.bus, `task.started.${taskId}.x`, completed);
    publishRawNotice(bed.bus, 'notify.workspace.default', 'not json {');
    publishNotice(bed.bus, 'notify.workspace.default', { kind: 'issue.exploded', id: 'issue-1', at: new Date().toISOString() });

    const started = createEvent({
      type: 'task.started',
      payload: { taskId, attempt: 1, daemonId: 'daemon-1', runtimeId: 'runtime-1', workDir: '/w', resumedSessionId: null, leaseExpiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    publishNotice(bed.bus, `task.started.${taskId}.daemon-1`, started);
    const notice = { kind: 'issue.created', id: 'issue-2', at: new Date().toISOString() };
    publishNotice(bed.bus, 'notify.workspace.default', notice);
    await viewer.waitFor((frames) => frames.some((frame) => frame.type === 'workspace' && frame.id === 'issue-2') && frames.some((frame) => frame.type === 'task'));

    const feed = viewer.frames.filter((frame): frame is Extract<ServerFrame, { type: 'task' | 'workspace' }> => frame.type === 'task' || frame.type === 'workspace');
    // The two frames race (a status change looks its task's workspace up first): any order.
    expect(feed).toHaveLength(2);
    expect(feed).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'task', taskId, event: 'task.started', status: 'running' }), { type: 'workspace', ...notice }]));
    expect((await fetch(`${bed.gateway.url}/healthz`)).status).toBe(200);
  });
});
