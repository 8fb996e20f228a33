import { SESSION_COMMAND_CATALOG, commandFailure, commandSuccess, subjects, type ClaimedTask, type CommandReply, type ResumeDecision, type SessionResolveCommand } from '@switchyard/contracts';
import { serveRequests, type MessagingConnection, type RequestServer } from '@switchyard/messaging';
import { createJsonLogger } from '@switchyard/service-kit';
import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { RESUME_INDEX_UNAVAILABLE, decideResume, type PreparedWorkDirectory } from './resume.decider';
import type { SessionStoreState } from './resume.gate';

const log = createJsonLogger({ service: 'resume-decider-test', level: 'fatal' });
const RESOLVE_TIMEOUT_MS = 300;
const DAEMON_ID = 'daemon-resume-decider-test';
const PRIOR_WORK_DIRECTORY = '/switchyard/workspaces/workspace-1/agent-1/prior-task';
const NEW_WORK_DIRECTORY = '/switchyard/workspaces/workspace-1/agent-1/new-task';

/**
 * The daemon's one resume decision against real NATS. The session-resume service is not started:
 * a responder on `cmd.session.resolve.<daemonId>` stands in for it, answering as the contract says. The exec
 * env and the store probe are the caller's steps, recorded here (the task runner's spec runs them for real).
 */
describe('resume decision: ask session-resume, prepare the exec env, gate', () => {
  let connection: MessagingConnection;
  let responder: RequestServer | undefined;
  let silentAnswers = 0;

  beforeEach(async () => {
    silentAnswers = 0;
    connection = await connectTestMessaging({ name: 'resume-decider-test', namespace: uniqueNamespace() });
  });
  afterEach(async () => {
    await responder?.stop();
    responder = undefined;
    await connection.close();
  });

  /** Answers like session-resume would (`'silence'`: not before the daemon gave up), and records what it was asked. */
  function serveResolve(answer: (command: SessionResolveCommand) => CommandReply<ResumeDecision> | 'silence'): SessionResolveCommand[] {
    const asked: SessionResolveCommand[] = [];
    responder = serveRequests(connection, {
      subject: subjects.command('session.resolve', DAEMON_ID),
      queueGroup: 'session-resume',
      requestSchema: SESSION_COMMAND_CATALOG['session.resolve'].request,
      handlerReturns: 'reply',
      handler: async (command: SessionResolveCommand) => {
        asked.push(command);
        const reply = answer(command);
        if (reply !== 'silence') return reply;
        await new Promise((resolve) => setTimeout(resolve, RESOLVE_TIMEOUT_MS * 2));
        silentAnswers += 1;
        return commandSuccess({ status: 'fresh', reason: 'no_prior_session' });
      },
    });
    return asked;
  }

  /** Decides for the task with recording steps: the exec env reuses the prior work dir as told, the store answers `store`. */
  async function decide(options: { readonly task?: ClaimedTask; readonly reused?: boolean; readonly store?: SessionStoreState } = {}) {
    const steps: string[] = [];
    const outcome = await decideResume<PreparedWorkDirectory>({
      task: options.task ?? sampleClaimedTask(),
      dependencies: { daemonId: DAEMON_ID, connection, logger: log },
      log,
      timeoutMs: RESOLVE_TIMEOUT_MS,
      prepare: (priorWorkDirectory) => {
        steps.push(`prepare ${priorWorkDirectory ?? 'new'}`);
        if (priorWorkDirectory === null) return Promise.resolve({ workDirectory: NEW_WORK_DIRECTORY, reused: false, reason: 'no_prior_work_directory', reasonDetail: 'no prior work directory' });
        if (options.reused === false) return Promise.resolve({ workDirectory: NEW_WORK_DIRECTORY, reused: false, reason: 'prior_missing', reasonDetail: 'prior work directory no longer exists' });
        return Promise.resolve({ workDirectory: priorWorkDirectory, reused: true, reason: 'reused', reasonDetail: 'prior work directory exists and its marker matches' });
      },
      probeSessionStore: (prepared, sessionId) => {
        steps.push(`probe ${sessionId} in ${prepared.workDirectory}`);
        return Promise.resolve(options.store ?? { state: 'present' });
      },
    });
    return { outcome, steps };
  }

  it('asks with the claimed task, prepares the exec env in the prior work dir it names, and resumes when the gate passes', async () => {
    const asked = serveResolve(() => commandSuccess({ status: 'resume', sessionId: 'session-1', workDir: PRIOR_WORK_DIRECTORY }));
    const task = sampleClaimedTask();

    const { outcome, steps } = await decide({ task });

    expect(asked.map((command) => ({ correlationId: command.correlationId, payload: command.payload }))).toEqual([
      { correlationId: task.taskId, payload: { taskId: task.taskId, agentId: task.agentId, runtimeId: task.runtimeId, source: task.source, forceFreshSession: false } },
    ]);
    expect(steps).toEqual([`prepare ${PRIOR_WORK_DIRECTORY}`, `probe session-1 in ${PRIOR_WORK_DIRECTORY}`]);
    expect(outcome).toMatchObject({ decision: { status: 'resume', sessionId: 'session-1' }, resumeSessionId: 'session-1', notes: [] });
  });

  it('keeps the files of a session it may not continue: a fresh answer naming the prior work dir prepares there, never probing a session', async () => {
    serveResolve(() => commandSuccess({ status: 'fresh', reason: 'poisoned:iteration_limit', workDir: PRIOR_WORK_DIRECTORY }));

    const kept = await decide();
    expect(kept.steps).toEqual([`prepare ${PRIOR_WORK_DIRECTORY}`]);
    expect(kept.outcome).toMatchObject({ decision: { status: 'fresh', reason: 'poisoned:iteration_limit' }, resumeSessionId: undefined, notes: [] });

    // The dir is gone (the GC, a disk wiped): the run starts in a fresh one and says why.
    const lost = await decide({ reused: false });
    expect(lost.outcome.notes).toEqual([
      { type: 'notice', code: 'work_dir_fresh', text: 'The prior work directory was not reused (prior_missing: prior work directory no longer exists); this run starts in a fresh one.' },
    ]);
  });

  it('does not ask for a forced fresh task, nor for a quick task or an autopilot run, which continue no conversation', async () => {
    const asked = serveResolve(() => commandSuccess({ status: 'resume', sessionId: 's', workDir: PRIOR_WORK_DIRECTORY }));

    const forced = await decide({ task: sampleClaimedTask({ forceFreshSession: true }) });
    const quick = await decide({ task: sampleClaimedTask({ source: { kind: 'quick_create' } }) });
    const autopilot = await decide({ task: sampleClaimedTask({ source: { kind: 'autopilot', autopilotId: 'autopilot-1', trigger: 'schedule' } }) });

    expect(asked).toEqual([]);
    expect(forced).toMatchObject({ outcome: { decision: { status: 'fresh', reason: 'forced_fresh' }, resumeSessionId: undefined, notes: [] }, steps: ['prepare new'] });
    expect(quick).toMatchObject({ outcome: { decision: { status: 'fresh', reason: 'no_prior_session' }, resumeSessionId: undefined }, steps: ['prepare new'] });
    expect(autopilot).toMatchObject({ outcome: { decision: { status: 'fresh', reason: 'no_prior_session' }, resumeSessionId: undefined }, steps: ['prepare new'] });
  });

  it('starts fresh with a resume_skipped note when the offered session cannot be kept', async () => {
    serveResolve(() => commandSuccess({ status: 'resume', sessionId: 'session-1', workDir: PRIOR_WORK_DIRECTORY }));

    const { outcome, steps } = await decide({ reused: false });

    // Not reused: the store is not even looked at.
    expect(steps).toEqual([`prepare ${PRIOR_WORK_DIRECTORY}`]);
    expect(outcome.resumeSessionId).toBeUndefined();
    expect(outcome.notes).toEqual([
      { type: 'status', state: 'resume_skipped', progress: 'work_dir_missing: prior_missing: prior work directory no longer exists; starting fresh' },
      { type: 'notice', code: 'resume_skipped', text: 'The prior session was not resumed (work_dir_missing: prior_missing: prior work directory no longer exists); this run starts a fresh session.' },
    ]);
  });

  it('starts fresh with resume_index_unavailable when no session-resume service listens', async () => {
    const { outcome, steps } = await decide();

    expect(outcome).toMatchObject({ decision: RESUME_INDEX_UNAVAILABLE, resumeSessionId: undefined, notes: [] });
    expect(steps).toEqual(['prepare new']);
  });

  it('starts fresh with resume_index_unavailable when session-resume refuses', async () => {
    serveResolve(() => commandFailure('unavailable', 'the resume index cannot be read right now'));

    const { outcome, steps } = await decide();

    expect(outcome).toMatchObject({ decision: RESUME_INDEX_UNAVAILABLE, resumeSessionId: undefined, notes: [] });
    expect(steps).toEqual(['prepare new']);
  });

  it('gives up on a session-resume that does not answer before it answers, then starts fresh', async () => {
    const asked = serveResolve(() => 'silence');

    const { outcome, steps } = await decide();

    // The responder answers only after twice the timeout: the decision came first.
    expect(silentAnswers).toBe(0);
    expect(asked).toHaveLength(1);
    expect(outcome).toMatchObject({ decision: RESUME_INDEX_UNAVAILABLE, resumeSessionId: undefined, notes: [] });
    expect(steps).toEqual(['prepare new']);
  });
});
