import type { ResumeDecision } from '@switchyard/contracts';
import { decideResumeGate, type SessionStoreState } from './resume.gate';

const RESUME: ResumeDecision = { status: 'resume', sessionId: 'session-1', workDir: '/root/workspaces/w/a/task-1-x' };
const REUSED = { reused: true, reason: 'reused', detail: 'prior work directory exists and its marker matches' } as const;
const PRESENT: SessionStoreState = { state: 'present' };

describe('resume gate', () => {
  it('resumes when the prior work dir was reused and the session store is there', () => {
    expect(decideResumeGate({ decision: RESUME, workDirectory: REUSED, sessionStore: PRESENT })).toEqual({ kind: 'resume', sessionId: 'session-1' });
  });

  it('resumes when the store cannot be checked for this CLI: the CLI itself rejects a bad resume', () => {
    expect(decideResumeGate({ decision: RESUME, workDirectory: REUSED, sessionStore: { state: 'unverified' } })).toEqual({ kind: 'resume', sessionId: 'session-1' });
  });

  it.each([
    [{ status: 'fresh', reason: 'no_prior_session' }],
    [{ status: 'fresh', reason: 'resume_index_unavailable' }],
  ] as const)('starts fresh, quietly, when the decision is %j', (decision) => {
    expect(decideResumeGate({ decision, workDirectory: { reused: false, reason: 'no_prior_work_directory', detail: '' }, sessionStore: { state: 'unverified' } })).toEqual({ kind: 'fresh' });
  });

  it('skips the resume as work_dir_missing when another work dir was given, and keeps the session', () => {
    const verdict = decideResumeGate({ decision: RESUME, workDirectory: { reused: false, reason: 'prior_missing', detail: 'prior work directory no longer exists' }, sessionStore: PRESENT });
    expect(verdict).toEqual({ kind: 'skip', sessionId: 'session-1', reason: 'work_dir_missing', detail: 'prior_missing: prior work directory no longer exists', retire: false });
  });

  it('skips the resume as work_dir_missing when the prior session has no known work dir', () => {
    const verdict = decideResumeGate({ decision: { ...RESUME, workDir: null }, workDirectory: REUSED, sessionStore: PRESENT });
    expect(verdict).toMatchObject({ kind: 'skip', reason: 'work_dir_missing', retire: false });
  });

  it('skips and retires the session when its store is missing', () => {
    const verdict = decideResumeGate({ decision: RESUME, workDirectory: REUSED, sessionStore: { state: 'missing', detail: 'no file' } });
    expect(verdict).toEqual({ kind: 'skip', sessionId: 'session-1', reason: 'session_store_missing', detail: 'no file', retire: true });
  });
});
