import { createEvent } from '@switchyard/contracts';
import { startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { events } from './domain/resume.fixtures.spec-helper';
import { INDEXED_EVENT_STREAMS, indexConsumerName, type IndexedEventType } from './index/resume-index.projector';
import { sessionResumeApp } from './session-resume.app';
import { conversation } from './session-resume.conversation.spec-helper';
import { SessionResumeTestBed, TEST_DAEMON_ID } from './session-resume.test-bed.spec-helper';

describe('session-resume (real NATS + Postgres)', () => {
  let service: ServiceUnderTest;
  let bed: SessionResumeTestBed;

  beforeAll(async () => {
    service = await startServiceForTest(sessionResumeApp, { database: true });
    bed = await SessionResumeTestBed.connect(service);
  });
  afterAll(async () => {
    await bed?.close();
    await service?.stop();
  });

  it('resumes the prior session and work dir of the same agent and issue', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    const prior = ran(taskIds[0]);
    await bed.publish([prior.enqueued, prior.started, prior.pinned, prior.completed]);

    const reply = await bed.eventually(next(), { status: 'resume', sessionId: sessionOf(taskIds[0]), workDir: workDirOf(taskIds[0]) });

    expect(reply).toEqual({ ok: true, result: { status: 'resume', sessionId: sessionOf(taskIds[0]), workDir: workDirOf(taskIds[0]) } });
    // Every index consumer commits its checkpoint with its rows. The answer above can come before
    // session.pinned is indexed (task.completed names the session too), so wait for the four.
    const expected = (['session.pinned', 'task.completed', 'task.enqueued', 'task.started'] as const).map((type) => bed.connection.namespace.consumer(indexConsumerName(type)));
    expect(await bed.checkpointed(expected)).toEqual(expect.arrayContaining(expected));
    expect(Object.keys(INDEXED_EVENT_STREAMS)).toHaveLength(7);
  });

  it('starts fresh after a poisoned failure, and resumes after a failure that is not', async () => {
    const poisoned = conversation();
    const first = poisoned.ran(poisoned.taskIds[0]);
    await bed.publish([first.enqueued, first.started, first.pinned, first.failed({ reason: 'iteration_limit' })]);
    const benign = conversation();
    const other = benign.ran(benign.taskIds[0]);
    await bed.publish([other.enqueued, other.started, other.pinned, other.failed({ reason: 'runtime_offline' })]);

    // The session is not continued; its work dir is named so the files carry on.
    const poisonedAnswer = { status: 'fresh', reason: 'poisoned:iteration_limit', workDir: poisoned.workDirOf(poisoned.taskIds[0]) } as const;
    expect(await bed.eventually(poisoned.next(), poisonedAnswer)).toEqual({ ok: true, result: poisonedAnswer });
    const resumed = { status: 'resume', sessionId: benign.sessionOf(benign.taskIds[0]), workDir: benign.workDirOf(benign.taskIds[0]) } as const;
    expect(await bed.eventually(benign.next(), resumed)).toEqual({ ok: true, result: resumed });
  });

  it('starts fresh when the new task runs on another runtime', async () => {
    const { taskIds, ran, next, workDirOf } = conversation();
    const prior = ran(taskIds[0]);
    await bed.publish([prior.enqueued, prior.started, prior.pinned, prior.completed]);
    await bed.indexed(taskIds[0], (entry) => entry['outcome'] !== null);

    expect(await bed.resolve(next({ runtimeId: 'runtime-2' }))).toEqual({ ok: true, result: { status: 'fresh', reason: 'runtime_changed', workDir: workDirOf(taskIds[0]) } });
  });

  it('never offers a retired session, even when the retirement arrives before the task events', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    // session.retired first, on the other stream
    await bed.publish([createEvent({ type: 'session.retired', payload: { sessionId: sessionOf(taskIds[0]), taskId: taskIds[0], reason: 'context_overflow', message: null } })]);
    const prior = ran(taskIds[0]);
    await bed.publish([prior.enqueued, prior.started, prior.pinned, prior.completed]);

    const retired = { status: 'fresh', reason: 'retired', workDir: workDirOf(taskIds[0]) } as const;
    expect(await bed.eventually(next(), retired)).toEqual({ ok: true, result: retired });
  });

  it('answers the same after duplicates and out-of-order events: the latest task of the conversation wins', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    const older = ran(taskIds[0]);
    const newer = ran(taskIds[1], { hour: 1 });
    // The newer task's end first, then its start, then the older task late, everything twice.
    const history = [newer.completed, newer.pinned, newer.started, newer.enqueued, older.enqueued, older.started, older.pinned, older.failed({ reason: 'iteration_limit' })];
    await bed.publish(history);
    await bed.publish(history, { copy: true });
    await bed.indexed(taskIds[0], (entry) => entry['outcome'] !== null);

    const resumed = { status: 'resume', sessionId: sessionOf(taskIds[1]), workDir: workDirOf(taskIds[1]) } as const;
    expect(await bed.eventually(next(), resumed)).toEqual({ ok: true, result: resumed });
    const rows = await bed.query<{ task_id: string }>('select task_id from session_resume_task where task_id = any($1) order by task_id', [[taskIds[0], taskIds[1]]]);
    expect(rows).toHaveLength(2);
  });

  it('answers prior_running while the prior task has not ended, and never offers the asking task itself', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    const prior = ran(taskIds[0]);
    const asking = ran(taskIds[2], { hour: 2 });
    await bed.publish([prior.enqueued, prior.started, prior.pinned, asking.enqueued, asking.started, asking.pinned]);
    await bed.indexed(taskIds[2], (entry) => entry['session'] !== null);

    expect(await bed.resolve(next())).toEqual({ ok: true, result: { status: 'fresh', reason: 'prior_running' } });
    await bed.publish([prior.completed]);
    const resumed = { status: 'resume', sessionId: sessionOf(taskIds[0]), workDir: workDirOf(taskIds[0]) } as const;
    expect(await bed.eventually(next(), resumed)).toEqual({ ok: true, result: resumed });
  });

  it('waits briefly for a predecessor whose end is still on its way, then resumes it in the same answer', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    const prior = ran(taskIds[0]);
    await bed.publish([prior.enqueued, prior.started, prior.pinned]);
    await bed.indexed(taskIds[0], (entry) => entry['session'] !== null);

    // The queue claims the next message the moment the first completes; the end arrives just after.
    const answering = bed.resolve(next());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await bed.publish([prior.completed]);

    expect(await answering).toEqual({ ok: true, result: { status: 'resume', sessionId: sessionOf(taskIds[0]), workDir: workDirOf(taskIds[0]) } });
  });

  it('answers forced fresh and no_prior_session without a prior task', async () => {
    const { next } = conversation();
    expect(await bed.resolve(next({ forceFreshSession: true }))).toEqual({ ok: true, result: { status: 'fresh', reason: 'forced_fresh' } });
    expect(await bed.resolve(next())).toEqual({ ok: true, result: { status: 'fresh', reason: 'no_prior_session' } });
    expect(await bed.resolve(next({ source: { kind: 'quick_create' } }))).toEqual({ ok: true, result: { status: 'fresh', reason: 'no_prior_session' } });
  });

  it('refuses a malformed request with invalid_request', async () => {
    const { next } = conversation();
    const { forceFreshSession: _omitted, ...payload } = next();
    const reply = await bed.send({ requestId: 'resolve-malformed', command: 'session.resolve', schemaVersion: 1, correlationId: 'resolve-malformed', payload });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('dead-letters malformed events and keeps projecting', async () => {
    const { taskIds, ran, next, sessionOf, workDirOf } = conversation();
    await bed.publishRaw(`task.completed.${taskIds[0]}.queue`, '{ not json');
    await bed.publishRaw(`task.failed.${taskIds[0]}.queue`, JSON.stringify({ ...events.failed({ taskId: taskIds[0] }), payload: { taskId: taskIds[0] } }));
    await bed.publishRaw(`session.pinned.${taskIds[0]}.${TEST_DAEMON_ID}`, JSON.stringify(events.started({ taskId: taskIds[0] })));
    const prior = ran(taskIds[0]);
    await bed.publish([prior.enqueued, prior.started, prior.pinned, prior.completed]);

    const resumed = { status: 'resume', sessionId: sessionOf(taskIds[0]), workDir: workDirOf(taskIds[0]) } as const;
    expect(await bed.eventually(next(), resumed)).toEqual({ ok: true, result: resumed });
    const lettersOf = async (type: IndexedEventType) => (await bed.deadLetters(indexConsumerName(type))).filter((letter) => letter.subject.includes(`.${taskIds[0]}.`));
    expect(await lettersOf('task.completed')).toEqual([{ subject: `task.completed.${taskIds[0]}.queue`, reason: 'decode_failed' }]);
    expect(await lettersOf('task.failed')).toEqual([{ subject: `task.failed.${taskIds[0]}.queue`, reason: 'decode_failed' }]);
    expect(await lettersOf('session.pinned')).toEqual([{ subject: `session.pinned.${taskIds[0]}.${TEST_DAEMON_ID}`, reason: 'decode_failed' }]);
  });
});
