import type { INestApplication } from '@nestjs/common';
import type { CommandOf } from '@switchyard/contracts';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';
import { startSchedulerReplica } from './autopilot-replica.spec-helper';
import type { AutopilotScheduler } from './autopilot.scheduler';

/** Tomorrow (UTC) plus `days`, at hh:mm:ss: after every autopilot's creation, so its minutes are due. */
function dayAt(days: number, time: string): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1 + days));
  return new Date(`${day.toISOString().slice(0, 10)}T${time}Z`);
}

describe('autopilot scheduler: two replicas tick with a fixed clock (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let agentId: string;
  const replicas: Array<{ scheduler: AutopilotScheduler; app: INestApplication }> = [];

  const sentFor = (autopilotId: string): Array<CommandOf<'task.enqueue'>> =>
    queue.enqueued.filter((command) => command.payload.source.kind === 'autopilot' && command.payload.source.autopilotId === autopilotId);
  const tickBoth = async (now: Date) => Promise.all(replicas.map((replica) => replica.scheduler.tick(now)));

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000', GATEWAY_AUTOPILOT_TICK_MS: '0' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    agentId = (await kit.as(alpha.token).post('/api/agents', { name: 'Cron', runtimeId })).body.id;
    replicas.push(await startSchedulerReplica(kit), await startSchedulerReplica(kit));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.app.close();
    await queue?.stop();
    await kit?.stop();
  });

  it('fires each due minute once across replicas, only the latest after a gap, and never again for a minute already fired', async () => {
    const api = kit.as(alpha.token);
    const daily: { id: string } = (await api.post('/api/autopilots', { name: 'Daily', agentId, instructions: 'Summarize yesterday', schedule: '0 9 * * *' })).body;
    const unscheduled: { id: string } = (await api.post('/api/autopilots', { name: 'By hand', agentId, instructions: 'Only when asked' })).body;
    const paused: { id: string } = (await api.post('/api/autopilots', { name: 'Paused', agentId, instructions: 'Never', schedule: '* * * * *', enabled: false })).body;

    const first = await tickBoth(dayAt(0, '09:00:30'));
    const firstMinute = dayAt(0, '09:00:00').toISOString();
    expect(first.flatMap((report) => report.fired).filter((entry) => entry.startsWith(daily.id))).toEqual([`${daily.id}@${firstMinute}`]);
    const [sent, ...more] = sentFor(daily.id);
    expect(more).toEqual([]);
    expect(sent!.payload.source).toEqual({ kind: 'autopilot', autopilotId: daily.id, trigger: 'schedule' });
    expect(sent!.payload.prompt).toContain(`Fired for: ${firstMinute}`);
    expect(sent!.payload.prompt).not.toContain('## Payload');
    expect((await api.get(`/api/autopilots/${daily.id}`)).body.lastFiredMinute).toBe(firstMinute);

    await tickBoth(dayAt(0, '09:00:50'));
    await tickBoth(dayAt(0, '09:05:00'));
    expect(sentFor(daily.id)).toHaveLength(1);

    // A replica that missed the update (last_fired_minute read stale) meets the unique trigger key.
    await kit.query('update autopilot set last_fired_minute = null where id = $1', [daily.id]);
    await tickBoth(dayAt(0, '09:01:00'));
    expect(sentFor(daily.id)).toHaveLength(1);
    expect(await kit.query(`select trigger_key from task_trigger where starts_with(trigger_key, $1)`, [`autopilot:${daily.id}:`])).toEqual([
      { trigger_key: `autopilot:${daily.id}:schedule:${firstMinute.slice(0, 16)}Z` },
    ]);

    // Three days down: the minutes of days 1 and 2 are passed over, day 3's fires once.
    const late = await tickBoth(dayAt(3, '10:15:00'));
    expect(late.flatMap((report) => report.fired).filter((entry) => entry.startsWith(daily.id))).toEqual([`${daily.id}@${dayAt(3, '09:00:00').toISOString()}`]);
    expect(late.reduce((total, report) => total + report.skipped, 0)).toBe(2);
    expect(sentFor(daily.id)).toHaveLength(2);

    expect(sentFor(unscheduled.id)).toEqual([]);
    expect(sentFor(paused.id)).toEqual([]);
  });

  it('create_issue mode: one issue and one assignment task per due minute across replicas; a new schedule counts from now', async () => {
    const api = kit.as(alpha.token);
    const audit: { id: string } = (await api.post('/api/autopilots', { name: 'Audit', agentId, instructions: 'Audit', mode: 'create_issue', schedule: '*/30 * * * *' })).body;
    await tickBoth(dayAt(10, '12:30:10'));
    await tickBoth(dayAt(10, '12:45:10'));
    const issues = await kit.query<{ id: string; title: string }>(`select id, title from issue where workspace_id = $1 and title like 'Audit — %'`, [alpha.id]);
    expect(issues.map((issue) => issue.title)).toEqual([`Audit — ${dayAt(10, '12:30:00').toISOString().slice(0, 16).replace('T', ' ')} UTC`]);
    const sent = queue.enqueued.filter((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === issues[0]!.id);
    expect(sent.map((command) => command.payload.source)).toEqual([{ kind: 'issue', issueId: issues[0]!.id, trigger: 'assignment', commentId: null }]);

    await tickBoth(dayAt(10, '13:00:10'));
    expect(await kit.query(`select id from issue where workspace_id = $1 and title like 'Audit — %'`, [alpha.id])).toHaveLength(2);
    // Disabled, then enabled again: the minutes in between never fire (due minutes count from the re-enable).
    await api.patch(`/api/autopilots/${audit.id}`, { enabled: false });
    await tickBoth(dayAt(10, '13:30:10'));
    await api.patch(`/api/autopilots/${audit.id}`, { enabled: true });
    await kit.query(`update autopilot set schedule_since = $2 where id = $1`, [audit.id, dayAt(10, '13:45:00')]);
    await tickBoth(dayAt(10, '13:50:00'));
    expect(await kit.query(`select id from issue where workspace_id = $1 and title like 'Audit — %'`, [alpha.id])).toHaveLength(2);
    await tickBoth(dayAt(10, '14:00:00'));
    expect(await kit.query(`select id from issue where workspace_id = $1 and title like 'Audit — %'`, [alpha.id])).toHaveLength(3);
  });
});
