import { decide, initialTaskState } from './task.decider';
import type { TaskCommand } from './task.commands';
import { commands, histories } from './task.fixtures.spec-helper';
import { fold, outcomeOf } from './task-given.spec-helper';

// Every (state x command) pair and its outcome. Reports name attempt 1 of daemon-a; the clock is
// past every deadline of the histories. Detailed payloads are in task.decider.unit.spec.ts.

const COMMANDS = {
  enqueue: commands.enqueue(),
  claim: commands.claim(),
  start: commands.start(),
  renew: commands.renew(),
  awaitLocalDirectory: commands.awaitLocalDirectory(),
  complete: commands.complete(),
  fail: commands.fail(),
  requeue: commands.requeue(),
  cancel: commands.cancel(),
  expire: commands.expire(),
  startDeadline: commands.timeout('start_deadline'),
  lease: commands.timeout('lease'),
  run: commands.timeout('run'),
  runtimeOffline: commands.runtimeOffline(),
} satisfies Record<string, TaskCommand>;
type CommandName = keyof typeof COMMANDS;

const STALE = 'refused:stale_attempt';
const WRONG = 'refused:wrong_state';
const TERMINAL = 'refused:terminal';
const ALREADY = 'already_applied';

const NOT_LIVE: Record<Exclude<CommandName, 'enqueue' | 'claim' | 'cancel' | 'expire'>, string> = {
  start: STALE,
  renew: STALE,
  awaitLocalDirectory: STALE,
  complete: STALE,
  fail: STALE,
  requeue: STALE,
  startDeadline: STALE,
  lease: STALE,
  run: STALE,
  runtimeOffline: STALE,
};

function terminal(repeats: Partial<Record<CommandName, string>>): Record<CommandName, string> {
  const row = Object.fromEntries(Object.keys(COMMANDS).map((name) => [name, TERMINAL])) as Record<CommandName, string>;
  return { ...row, ...repeats };
}

const TABLE: Record<keyof typeof histories | 'absent', Record<CommandName, string>> = {
  absent: {
    enqueue: 'task.enqueued',
    ...Object.fromEntries(Object.keys(COMMANDS).filter((name) => name !== 'enqueue').map((name) => [name, 'refused:not_found'])),
  } as Record<CommandName, string>,
  queued: { enqueue: ALREADY, claim: 'task.claimed', cancel: 'task.cancelled', expire: 'task.expired', ...NOT_LIVE },
  deferredNotDue: { enqueue: ALREADY, claim: 'refused:not_due', cancel: 'task.cancelled', expire: 'task.expired', ...NOT_LIVE },
  deferredDue: { enqueue: ALREADY, claim: 'task.claimed', cancel: 'task.cancelled', expire: 'task.expired', ...NOT_LIVE },
  requeued: { enqueue: ALREADY, claim: 'task.claimed', cancel: 'task.cancelled', expire: 'task.expired', ...NOT_LIVE },
  dispatched: {
    enqueue: ALREADY,
    claim: WRONG,
    start: 'task.started',
    renew: 'task.start_deadline_extended',
    awaitLocalDirectory: 'task.local_directory_awaited',
    complete: WRONG,
    fail: 'task.failed',
    requeue: 'task.requeued',
    cancel: 'task.cancel_requested',
    expire: WRONG,
    startDeadline: 'task.timed_out + task.requeued',
    lease: WRONG,
    run: WRONG,
    runtimeOffline: 'task.failed',
  },
  // Exactly as dispatched, but a repeat of the same wait changes nothing.
  waitingLocalDirectory: {
    enqueue: ALREADY,
    claim: WRONG,
    start: 'task.started',
    renew: 'task.start_deadline_extended',
    awaitLocalDirectory: ALREADY,
    complete: WRONG,
    fail: 'task.failed',
    requeue: 'task.requeued',
    cancel: 'task.cancel_requested',
    expire: WRONG,
    startDeadline: 'task.timed_out + task.requeued',
    lease: WRONG,
    run: WRONG,
    runtimeOffline: 'task.failed',
  },
  running: {
    enqueue: ALREADY,
    claim: WRONG,
    start: ALREADY,
    renew: 'task.heartbeat',
    awaitLocalDirectory: WRONG,
    complete: 'task.completed',
    fail: 'task.failed',
    requeue: WRONG,
    cancel: 'task.cancel_requested',
    expire: WRONG,
    startDeadline: WRONG,
    lease: 'task.timed_out + task.failed',
    run: 'task.timed_out + task.failed',
    runtimeOffline: 'task.failed',
  },
  dispatchedCancelRequested: {
    enqueue: ALREADY,
    claim: WRONG,
    start: 'task.started',
    renew: 'no_events',
    awaitLocalDirectory: 'task.local_directory_awaited',
    complete: WRONG,
    fail: 'task.cancelled',
    requeue: 'task.cancelled',
    cancel: ALREADY,
    expire: WRONG,
    startDeadline: 'task.timed_out + task.cancelled',
    lease: WRONG,
    run: WRONG,
    runtimeOffline: 'task.cancelled',
  },
  waitingCancelRequested: {
    enqueue: ALREADY,
    claim: WRONG,
    start: 'task.started',
    renew: 'no_events',
    awaitLocalDirectory: ALREADY,
    complete: WRONG,
    fail: 'task.cancelled',
    requeue: 'task.cancelled',
    cancel: ALREADY,
    expire: WRONG,
    startDeadline: 'task.timed_out + task.cancelled',
    lease: WRONG,
    run: WRONG,
    runtimeOffline: 'task.cancelled',
  },
  runningCancelRequested: {
    enqueue: ALREADY,
    claim: WRONG,
    start: ALREADY,
    renew: 'no_events',
    awaitLocalDirectory: WRONG,
    complete: 'task.cancelled',
    fail: 'task.cancelled',
    requeue: WRONG,
    cancel: ALREADY,
    expire: WRONG,
    startDeadline: WRONG,
    lease: 'task.timed_out + task.cancelled',
    run: 'task.timed_out + task.cancelled',
    runtimeOffline: 'task.cancelled',
  },
  completed: terminal({ complete: ALREADY }),
  failed: terminal({ fail: ALREADY }),
  expired: terminal({ expire: ALREADY }),
  cancelledWhileQueued: terminal({ cancel: ALREADY }),
  cancelledWhileRunning: terminal({
    cancel: ALREADY,
    complete: ALREADY,
    fail: ALREADY,
    requeue: ALREADY,
    startDeadline: ALREADY,
    lease: ALREADY,
    run: ALREADY,
    runtimeOffline: ALREADY,
  }),
};

const cases = Object.entries(TABLE).flatMap(([stateName, row]) =>
  Object.entries(row).map(([commandName, expected]) => ({ stateName, commandName, expected })),
);

describe('task decider: (state x command) table', () => {
  it('covers every command in every state', () => {
    expect(cases).toHaveLength((Object.keys(histories).length + 1) * Object.keys(COMMANDS).length);
  });

  it.each(cases)('given $stateName, when $commandName, then $expected', ({ stateName, commandName, expected }) => {
    const state = stateName === 'absent' ? initialTaskState() : fold(histories[stateName as keyof typeof histories]);
    const decision = decide(COMMANDS[commandName as CommandName], state);
    expect(outcomeOf(decision)).toBe(expected);
  });
});
