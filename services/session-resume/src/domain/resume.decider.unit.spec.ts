import { CHAT, NEXT, OTHER_RUNTIME, SESSION, T4, WORK_DIR, events, request } from './resume.fixtures.spec-helper';
import { given } from './resume.given.spec-helper';

const resumed = { status: 'resume', sessionId: SESSION, workDir: WORK_DIR } as const;
const ranAndPinned = [events.enqueued(), events.started(), events.pinned()];

describe('resume decider', () => {
  describe('usable prior session: resume it', () => {
    it('resumes the session and work dir of a completed prior task of the same agent and issue', () => {
      given([...ranAndPinned, events.completed()]).when(request()).then(resumed);
    });

    it('resumes after a cancelled prior task', () => {
      given([...ranAndPinned, events.cancelled()]).when(request()).then(resumed);
    });

    it('resumes after a failure that does not poison the session', () => {
      given([...ranAndPinned, events.failed({ reason: 'runtime_offline', message: 'daemon silent' })]).when(request()).then(resumed);
    });

    it('resumes a session reported only by the completion, in the attempt work dir', () => {
      given([events.enqueued(), events.started(), events.completed({ sessionId: 'session-late' })])
        .when(request())
        .then({ status: 'resume', sessionId: 'session-late', workDir: WORK_DIR });
    });

    it('resumes the chat session of a chat task, whoever the agent is', () => {
      given([events.enqueued({ source: CHAT }), events.started(), events.pinned(), events.completed()])
        .when(request({ source: { ...CHAT, chatMessageId: 'chat-message-2' }, agentId: 'agent-9' }))
        .then(resumed);
    });
  });

  describe('forced fresh', () => {
    it('starts fresh when the task forces it (rerun, chat /new), even with a usable session', () => {
      given([...ranAndPinned, events.completed()]).when(request({ forceFreshSession: true })).thenFresh('forced_fresh');
    });
  });

  describe('no prior session', () => {
    it('starts fresh when the conversation has no earlier task', () => {
      given([]).when(request()).thenFresh('no_prior_session');
    });

    it('starts fresh for quick create and autopilot runs, which have no conversation', () => {
      given([...ranAndPinned, events.completed()]).when(request({ source: { kind: 'quick_create' } })).thenFresh('no_prior_session');
      given([...ranAndPinned, events.completed()])
        .when(request({ source: { kind: 'autopilot', autopilotId: 'autopilot-1', trigger: 'schedule' } }))
        .thenFresh('no_prior_session');
    });

    it('starts fresh when the prior task ran but left no session', () => {
      given([events.enqueued(), events.started(), events.completed({ sessionId: null })]).when(request()).thenFresh('no_prior_session', WORK_DIR);
    });

    it('ignores a prior task that never ran (cancelled while queued)', () => {
      given([events.enqueued(), events.cancelled({ attempt: null })]).when(request()).thenFresh('no_prior_session');
    });
  });

  describe('prior running', () => {
    it('starts fresh when the prior task has not ended', () => {
      given(ranAndPinned).when(request()).thenFresh('prior_running');
    });
  });

  describe('a fresh session keeps the prior work dir', () => {
    it('names the prior work dir when the session cannot be continued, so the files carry on', () => {
      given([...ranAndPinned, events.failed({ reason: 'iteration_limit' })]).when(request()).thenFresh('poisoned:iteration_limit', WORK_DIR);
    });

    it('names none when the prior task still runs or the start is forced', () => {
      given(ranAndPinned).when(request()).thenFresh('prior_running');
      given([...ranAndPinned, events.completed()]).when(request({ forceFreshSession: true })).thenFresh('forced_fresh');
    });
  });

  describe('runtime changed', () => {
    it('starts fresh when the new task runs on another runtime', () => {
      given([...ranAndPinned, events.completed()]).when(request({ runtimeId: OTHER_RUNTIME })).thenFresh('runtime_changed', WORK_DIR);
    });

    it('judges by the runtime that ran the session, not the one first enqueued for', () => {
      given([events.enqueued({ runtimeId: OTHER_RUNTIME }), events.started(), events.pinned(), events.completed()]).when(request()).then(resumed);
    });
  });

  describe('retired', () => {
    it('never offers a retired session', () => {
      given([...ranAndPinned, events.completed()], { retiredSessions: [SESSION] })
        .when(request())
        .thenFresh('retired', WORK_DIR);
    });

    it('offers a session when only another one was retired', () => {
      given([...ranAndPinned, events.completed()], { retiredSessions: ['session-other'] })
        .when(request())
        .then(resumed);
    });
  });

  describe('poisoned', () => {
    it.each([
      ['the failure reason', { reason: 'iteration_limit' as const, message: 'max turns' }, 'poisoned:iteration_limit'],
      ['the contract reason context_overflow', { reason: 'context_overflow' as const, message: 'too long' }, 'poisoned:agent_error.context_overflow'],
      ['the contract reason invalid_request', { reason: 'invalid_request' as const, message: 'API Error: 400 invalid_request_error' }, 'poisoned:api_invalid_request'],
      ['agent_error with the code context_overflow in the message', { reason: 'agent_error' as const, message: 'context_overflow: prompt is too long' }, 'poisoned:agent_error.context_overflow'],
      ['the code in the message', { message: 'agent_fallback_message' }, 'poisoned:agent_fallback_message'],
      ['the code in the detail', { message: 'exit 1', detail: '{"code":"api_invalid_request","status":400}' }, 'poisoned:api_invalid_request'],
      ['a codex inactivity code', { message: 'stopped: codex_semantic_inactivity.' }, 'poisoned:codex_semantic_inactivity'],
      ['a codex oversized resume code', { message: 'exit 1', detail: 'codex_resume_oversized (12MB)' }, 'poisoned:codex_resume_oversized'],
    ])('starts fresh after a failure poisoned by %s', (_case, failure, reason) => {
      given([...ranAndPinned, events.failed(failure)]).when(request()).thenFresh(reason, WORK_DIR);
    });

    it.each(['rate_limited', 'provider_network', 'provider_error', 'auth_failed'] as const)('resumes after the provider reason %s, which leaves the conversation sound', (reason) => {
      given([...ranAndPinned, events.failed({ reason, message: 'API Error: 429' })]).when(request()).then(resumed);
    });

    it('does not take a code that is only part of a longer word', () => {
      given([...ranAndPinned, events.failed({ message: 'no_iteration_limit_hit', detail: 'api_invalid_request_count=0' })])
        .when(request())
        .then(resumed);
    });

    it('does not take context_overflow as a poison of another reason than agent_error', () => {
      given([...ranAndPinned, events.failed({ reason: 'timeout', message: 'context_overflow suspected' })])
        .when(request())
        .then(resumed);
    });
  });

  describe('order of the rules', () => {
    it('says forced before anything else', () => {
      given(ranAndPinned).when(request({ forceFreshSession: true, runtimeId: OTHER_RUNTIME })).thenFresh('forced_fresh');
    });

    it('says retired before a runtime change or a poison', () => {
      given([...ranAndPinned, events.failed({ reason: 'iteration_limit' })], { retiredSessions: [SESSION] })
        .when(request({ runtimeId: OTHER_RUNTIME }))
        .thenFresh('retired', WORK_DIR);
    });

    it('says runtime_changed before a poison', () => {
      given([...ranAndPinned, events.failed({ reason: 'iteration_limit' })]).when(request({ runtimeId: OTHER_RUNTIME })).thenFresh('runtime_changed', WORK_DIR);
    });
  });

  it('keeps the request task apart from the prior one', () => {
    expect(request().taskId).toBe(NEXT);
    given([...ranAndPinned, events.completed({}, T4)]).when(request()).then(resumed);
  });
});
