import { createEvent, subjects } from '@switchyard/contracts';
import { startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { events } from './domain/resume.fixtures.spec-helper';
import { indexConsumerName } from './index/resume-index.projector';
import { RESOLVE_REFUSED_MESSAGE } from './resolve/session-resolve.server';
import { sessionResumeApp } from './session-resume.app';
import { RUNTIME, conversation } from './session-resume.conversation.spec-helper';
import { OTHER_DAEMON_ID, SessionResumeTestBed, TEST_DAEMON_ID } from './session-resume.test-bed.spec-helper';

const REFUSED = { ok: false, error: { code: 'sender_mismatch', message: RESOLVE_REFUSED_MESSAGE, retryable: false } };
/** Later than any event of a `conversation()` task that ran at hour 0. */
const LATER = '2025-06-01T13:00:00.000Z';

/** A conversation whose first task ran on RUNTIME, its attempt held by the test daemon, and ended. */
async function endedConversation(bed: SessionResumeTestBed) {
  const talk = conversation();
  const priorId = talk.taskIds[0];
  const prior = talk.ran(priorId);
  await bed.publish([prior.enqueued, prior.started, prior.pinned, prior.completed]);
  const resumed = { status: 'resume', sessionId: talk.sessionOf(priorId), workDir: talk.workDirOf(priorId) } as const;
  expect(await bed.eventually(talk.next(), resumed)).toEqual({ ok: true, result: resumed });
  // The index converges whatever the order its consumers see these in, but the resume can be
  // answered before the pin is indexed: a test comparing the entry before and after waits for all four.
  await bed.indexed(priorId, (entry) => entry['outcome'] != null && (entry['session'] as { pinned?: unknown } | null)?.pinned != null);
  return { ...talk, priorId, resumed };
}

/**
 * Trust on the bus: `session.resolve` is answered only to the daemon holding the asked task's live
 * attempt, for its runtime; a daemon's session event is indexed only from the daemon holding the
 * attempt it speaks for. Other daemons are real enrolled daemons, on their own subjects.
 */
describe('session-resume sender checks (real NATS + Postgres)', () => {
  let service: ServiceUnderTest;
  let bed: SessionResumeTestBed;

  beforeAll(async () => {
    // Two deliveries, so an event of an attempt nobody holds reaches its last one within a test.
    service = await startServiceForTest(sessionResumeApp, { database: true, env: { SESSION_RESUME_MAX_DELIVER: '2' } });
    bed = await SessionResumeTestBed.connect(service);
  });
  afterAll(async () => {
    await bed?.close();
    await service?.stop();
  });

  const entryOf = async (taskId: string) => (await bed.query<{ entry: unknown }>('select entry from session_resume_task where task_id = $1', [taskId]))[0]?.entry;

  it('answers sender_mismatch to a daemon not holding the task’s attempt, the same as for an unknown task', async () => {
    // Given the test daemon holds the asking task's attempt, and the index offers it a session
    const { next } = await endedConversation(bed);
    // When another enrolled daemon asks about that task, or anyone about a task nobody claimed
    const asOther = await bed.resolve(next(), { sender: OTHER_DAEMON_ID });
    const unknownTask = next({ taskId: uniqueNamespace('task') });
    // Then each is refused with one and the same failure
    expect(asOther).toEqual(REFUSED);
    expect(await bed.resolve(unknownTask, { sender: OTHER_DAEMON_ID })).toEqual(REFUSED);
    expect(await bed.resolve(unknownTask, { holds: false })).toEqual(REFUSED);
  });

  it('answers sender_mismatch to the holder asking for another runtime than the task’s', async () => {
    // Given the test daemon holds the asking task's attempt on RUNTIME
    const { taskIds, next, resumed } = await endedConversation(bed);
    await bed.holdAttempt({ taskId: taskIds[2], attempt: 1, runtimeId: RUNTIME });
    // When it asks as if the task ran elsewhere
    // Then it is refused, and asked for the task's own runtime it is answered
    expect(await bed.resolve(next({ runtimeId: 'runtime-2' }), { holds: false })).toEqual(REFUSED);
    expect(await bed.resolve(next())).toEqual({ ok: true, result: resumed });
  });

  it('dead-letters a session.pinned forged by another daemon and leaves the index as it was', async () => {
    // Given a task whose attempt the test daemon held, indexed with its session
    const { priorId, next, resumed } = await endedConversation(bed);
    const before = await entryOf(priorId);
    // When another daemon pins a newer session of its own for that attempt
    const forged = events.pinned({ taskId: priorId, sessionId: `forged-${priorId}`, runtimeId: RUNTIME, workDir: '/tmp/elsewhere' }, LATER);
    await bed.publishAsDaemon(OTHER_DAEMON_ID, [forged]);
    // Then it is dead-lettered with the publisher and the holder, and nothing changed
    const subject = subjects.forEvent(forged, OTHER_DAEMON_ID);
    expect(await bed.deadLettered(indexConsumerName('session.pinned'), subject)).toEqual({
      subject,
      reason: 'permanent_error',
      detail: `permanent_error: PermanentError: session.pinned published by ${OTHER_DAEMON_ID}, but attempt 1 of task ${priorId} is held by ${TEST_DAEMON_ID}`,
    });
    expect(await entryOf(priorId)).toEqual(before);
    expect(await bed.resolve(next())).toEqual({ ok: true, result: resumed });
  });

  it('indexes the pin of the daemon holding the attempt: the test daemon’s first, another daemon’s of the retry it holds', async () => {
    // Given a task whose first attempt the test daemon held and pinned
    const { taskIds, ran, sessionOf } = conversation();
    const taskId = taskIds[0];
    const prior = ran(taskId);
    await bed.publish([prior.enqueued, prior.started, prior.pinned]);
    await bed.indexed(taskId, (entry) => (entry['session'] as { sessionId?: string } | null)?.sessionId === sessionOf(taskId));
    // When its second attempt is claimed by another daemon, which pins its own session
    await bed.holdAttempt({ taskId, attempt: 2, runtimeId: RUNTIME, daemonId: OTHER_DAEMON_ID });
    const retried = events.pinned({ taskId, attempt: 2, sessionId: `retried-${taskId}`, runtimeId: RUNTIME, workDir: '/w/retried' }, LATER);
    await bed.publishAsDaemon(OTHER_DAEMON_ID, [retried]);
    // Then the index takes the holder's pin
    await bed.indexed(taskId, (entry) => (entry['session'] as { sessionId?: string } | null)?.sessionId === `retried-${taskId}`);
    expect(await entryOf(taskId)).toMatchObject({ session: { sessionId: `retried-${taskId}`, attempt: 2, pinned: { attempt: 2, runtimeId: RUNTIME, workDir: '/w/retried' } } });
  });

  it('dead-letters the holder’s pin placing the session on another runtime than the task’s', async () => {
    const { priorId, next, resumed } = await endedConversation(bed);
    const before = await entryOf(priorId);
    const moved = events.pinned({ taskId: priorId, sessionId: `moved-${priorId}`, runtimeId: 'runtime-2', workDir: '/w/moved' }, LATER);
    await bed.publish([moved]);
    const letter = await bed.deadLettered(indexConsumerName('session.pinned'), subjects.forEvent(moved, TEST_DAEMON_ID));
    expect(letter).toMatchObject({ reason: 'permanent_error', detail: expect.stringContaining(`places the session on runtime-2, but task ${priorId} runs on ${RUNTIME}`) as unknown });
    expect(await entryOf(priorId)).toEqual(before);
    expect(await bed.resolve(next())).toEqual({ ok: true, result: resumed });
  });

  it('dead-letters a session.retired forged by another daemon: the session is still offered', async () => {
    const { priorId, sessionOf, next, resumed } = await endedConversation(bed);
    const forged = createEvent({ type: 'session.retired', payload: { sessionId: sessionOf(priorId), taskId: priorId, reason: 'resume_rejected', message: null } });
    await bed.publishAsDaemon(OTHER_DAEMON_ID, [forged]);
    const letter = await bed.deadLettered(indexConsumerName('session.retired'), subjects.forEvent(forged, OTHER_DAEMON_ID));
    expect(letter).toMatchObject({ reason: 'permanent_error', detail: expect.stringContaining(`no attempt of task ${priorId} was held by it`) as unknown });
    expect(await bed.query('select session_id from session_resume_retired where session_id = $1', [sessionOf(priorId)])).toEqual([]);
    expect(await bed.resolve(next())).toEqual({ ok: true, result: resumed });
  });

  it('retries a pin of an attempt nobody holds, then dead-letters it on its last delivery', async () => {
    const taskId = uniqueNamespace('task');
    const unheld = events.pinned({ taskId, sessionId: `unheld-${taskId}`, runtimeId: RUNTIME }, LATER);
    await bed.publishAsDaemon(OTHER_DAEMON_ID, [unheld]);
    const letter = await bed.deadLettered(indexConsumerName('session.pinned'), subjects.forEvent(unheld, OTHER_DAEMON_ID));
    expect(letter).toMatchObject({ reason: 'max_deliver_exceeded', detail: expect.stringContaining(`attempt 1 of task ${taskId} has no holder yet`) as unknown });
    expect(await entryOf(taskId)).toBeUndefined();
  });
});
