import { processesWithEnvironment } from '@switchyard/testing';
import { AGENT_MESSAGE_TYPES, agentMessageSchema, type AgentMessage } from '@switchyard/contracts';
import type { FaultStep } from './fault-cli.steps';
import { FAULT_FAMILIES } from './fault-families';
import { startDaemonFaultStack, type DaemonFaultStack, type FaultProfile } from './daemon-fault.spec-helper';
import { withDeepToolInput } from './malformed-output.cases';

const DAEMON_ID = 'daemon-faults';
const MEBIBYTE = 1024 * 1024;
const frames = FAULT_FAMILIES.claude.frames();
const opening: FaultStep[] = [...frames.session(), ...frames.text('hello from the fault CLI')];

/**
 * The worst cases of the corpus, each a runtime profile, and the failure reason each task must end
 * with. `timelineErrorToday`: whether its timeline has an `error` message. The daemon publishes
 * only what the adapter emitted, and most failures emit none: the reason reaches `task.failed`
 * (message, stderr tail) but not the timeline. A known gap; once the daemon also writes the run's
 * error into the timeline, these turn true and the table must follow.
 */
const FAULT_TASKS: ReadonlyArray<FaultProfile & { readonly failureReason: string; readonly timelineErrorToday: boolean }> = [
  {
    profileId: 'line-20mb',
    script: { steps: [...opening, { bigLine: { bytes: 20 * MEBIBYTE, head: '{"type":"assistant","text":"', tail: '"}' } }] },
    failureReason: 'invalid_output',
    timelineErrorToday: true,
  },
  {
    profileId: 'invalid-utf8-nul',
    script: { steps: [...opening, { outBase64: Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x00, 0x0a]).toString('base64') }] },
    failureReason: 'invalid_output',
    timelineErrorToday: false,
  },
  { profileId: 'hang', script: { steps: [...opening, { hang: true }] }, failureReason: 'timeout', timelineErrorToday: false },
  { profileId: 'stderr-flood', script: { steps: [...opening, { stderrFlood: { lines: 50_000 } }, { exit: 1 }] }, failureReason: 'agent_error', timelineErrorToday: false },
  { profileId: 'exit-without-result', script: { steps: opening }, failureReason: 'agent_error', timelineErrorToday: false },
  // A CLI missing from PATH is never registered; a wrapper whose own dependency is missing is.
  { profileId: 'exit-127', script: { steps: [{ err: 'fault-cli: node-helper: command not found' }, { exit: 127 }] }, failureReason: 'agent_error', timelineErrorToday: false },
];
const HEALTHY: FaultProfile = { profileId: 'healthy', script: { steps: [...opening, ...frames.result()] } };
/**
 * Bad output the run recovers from: the adapter replaces what does not fit the contract, so the
 * task completes and its timeline says what was dropped (`agent_message_invalid`) or kept with a
 * placeholder (a tool input too deep to carry).
 */
const RECOVERED_TASKS: ReadonlyArray<FaultProfile & { readonly timelineShows: (message: AgentMessage) => boolean }> = [
  {
    profileId: 'wrong-types',
    script: { steps: [...opening, ...frames.wrongTypes(), ...frames.text('after the wrong types'), ...frames.result()] },
    timelineShows: (message) => message.type === 'error' && message.code === 'agent_message_invalid',
  },
  {
    profileId: 'deep-tool-input',
    script: { steps: [...opening, ...withDeepToolInput(frames.toolUse('call-deep'), 10_000)!, ...frames.toolResult('call-deep')!, ...frames.result()] },
    timelineShows: (message) => message.type === 'tool-use' && message.callId === 'call-deep' && typeof message.input === 'object' && message.input !== null && 'unreadable' in message.input,
  },
];

/**
 * The worst malformed-output cases as tasks on a real daemon (built processes, real NATS and
 * Postgres): each task fails with its reason and a message, its timeline stays contract-valid, no
 * agent process is left, and the daemon still runs a healthy task to completion afterwards.
 */
describe('a daemon running misbehaving CLIs', () => {
  let stack: DaemonFaultStack;

  beforeAll(async () => {
    // Idle 8 s: above a stderr flood on a loaded machine (stderr is no sign of progress), far below the test's patience.
    stack = await startDaemonFaultStack({ daemonId: DAEMON_ID, profiles: [...FAULT_TASKS, HEALTHY, ...RECOVERED_TASKS], daemonEnv: { DAEMON_IDLE_TIMEOUT_MS: '8000' } });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** How a task ended: its row, its timeline (every message checked against the contract), its processes. */
  const endOf = async (taskId: string, profile: string) => {
    const row = await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled']);
    const timeline = await stack.timeline(taskId);
    return {
      profile,
      status: row.status,
      failureReason: row.failure_reason,
      invalidMessages: timeline.filter((message) => !agentMessageSchema.safeParse(message).success).length,
      leftoverProcesses: processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`),
      timeline,
    };
  };

  it('fails each task with its reason and leaves no process, then completes a healthy one', async () => {
    const taskIds = await Promise.all(FAULT_TASKS.map((fault) => stack.enqueue({ runtimeId: stack.runtimeIdOf(fault.profileId), prompt: `Misbehave: ${fault.profileId}` })));

    const outcomes = await Promise.all(
      FAULT_TASKS.map(async (fault, index) => {
        const taskId = taskIds[index]!;
        const { timeline, ...ended } = await endOf(taskId, fault.profileId);
        return {
          ...ended,
          timelineHasError: timeline.some((message) => message.type === 'error'),
          failedWith: (await stack.failures(taskId)).map((failure) => ({ reason: failure.reason, hasMessage: failure.message.trim() !== '' })),
        };
      }),
    );
    expect(outcomes).toEqual(
      FAULT_TASKS.map((fault) => ({
        profile: fault.profileId,
        status: 'failed',
        failureReason: fault.failureReason,
        timelineHasError: fault.timelineErrorToday,
        failedWith: [{ reason: fault.failureReason, hasMessage: true }],
        invalidMessages: 0,
        leftoverProcesses: [],
      })),
    );

    const healthyTask = await stack.enqueue({ runtimeId: stack.runtimeIdOf(HEALTHY.profileId), prompt: 'Say hello' });
    expect(await stack.waitForTask(healthyTask, ['completed', 'failed', 'cancelled'])).toMatchObject({ status: 'completed', failure_reason: null });
    expect((await stack.timeline(healthyTask)).map((message) => message.type)).toEqual(expect.arrayContaining<(typeof AGENT_MESSAGE_TYPES)[number]>(['status', 'text']));
  }, 240_000);

  it('completes tasks whose CLI wrote wrong-typed fields or a 10 000-level tool input, with a contract-valid timeline', async () => {
    const taskIds = await Promise.all(RECOVERED_TASKS.map((fault) => stack.enqueue({ runtimeId: stack.runtimeIdOf(fault.profileId), prompt: `Misbehave: ${fault.profileId}` })));

    const outcomes = await Promise.all(
      RECOVERED_TASKS.map(async (fault, index) => {
        const { timeline, ...ended } = await endOf(taskIds[index]!, fault.profileId);
        return { ...ended, timelineShowsIt: timeline.some(fault.timelineShows) };
      }),
    );
    expect(outcomes).toEqual(
      RECOVERED_TASKS.map((fault) => ({ profile: fault.profileId, status: 'completed', failureReason: null, timelineShowsIt: true, invalidMessages: 0, leftoverProcesses: [] })),
    );
  }, 120_000);
});
