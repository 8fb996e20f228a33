export type WatchdogFiring = 'idle_timeout' | 'tool_timeout' | 'total_timeout' | 'exit_grace_elapsed';

/** Injectable time source, so tests drive the watchdog without waiting. */
export interface WatchdogClock {
  now(): number;
  setTimeout(callback: () => void, milliseconds: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemWatchdogClock: WatchdogClock = {
  now: () => Date.now(),
  setTimeout: (callback, milliseconds) => {
    const handle = setTimeout(callback, milliseconds);
    // A watchdog alone must not keep the daemon (or a test run) alive.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface WatchdogBudgets {
  /** `0` disables the idle check. */
  readonly idleMs: number;
  /** Silence allowed while a tool call is open; never shorter than `idleMs`. */
  readonly toolBudgetMs: number;
  /** `0` disables the total budget. */
  readonly totalMs: number;
  readonly exitGraceMs: number;
}

export interface ActivityWatchdogOptions {
  readonly budgets: WatchdogBudgets;
  readonly clock?: WatchdogClock;
  /** Called at most once; the watchdog is stopped by then. */
  readonly onFire: (firing: WatchdogFiring) => void;
}

export interface ActivityWatchdog {
  start(): void;
  /** Output seen: the silence clock restarts. */
  recordActivity(): void;
  toolStarted(callId: string): void;
  toolFinished(callId: string): void;
  /** The consumer applied backpressure: silence is ours, not the CLI's. */
  setHeld(held: boolean): void;
  /** The CLI reported its result: only a short exit grace is left, idle and total no longer apply. */
  resultSeen(): void;
  stop(): void;
  readonly openToolCalls: number;
}

type WatchdogPhase = 'created' | 'running' | 'exiting' | 'stopped';

/** One watchdog: its budgets, the open tool calls, when the run started and was last heard, the one armed timer. */
interface WatchdogState {
  readonly clock: WatchdogClock;
  readonly options: ActivityWatchdogOptions;
  readonly idleMs: number;
  readonly toolBudgetMs: number;
  readonly totalMs: number;
  readonly exitGraceMs: number;
  readonly openCalls: Set<string>;
  phase: WatchdogPhase;
  startedAt: number;
  lastActivityAt: number;
  held: boolean;
  timer: unknown;
}

/**
 * Tells a stuck CLI from a slow one. One timer is armed for the nearest deadline and re-armed when it
 * fires early (activity moved the deadline), so a flood of lines costs no timer churn.
 */
export function createActivityWatchdog(options: ActivityWatchdogOptions): ActivityWatchdog {
  const { idleMs, totalMs, exitGraceMs } = options.budgets;
  const watch: WatchdogState = {
    clock: options.clock ?? systemWatchdogClock,
    options,
    idleMs,
    toolBudgetMs: Math.max(options.budgets.toolBudgetMs, idleMs),
    totalMs,
    exitGraceMs,
    openCalls: new Set(),
    phase: 'created',
    startedAt: 0,
    lastActivityAt: 0,
    held: false,
    timer: undefined,
  };
  return {
    start: () => start(watch),
    recordActivity: () => touch(watch),
    toolStarted(callId: string): void {
      watch.openCalls.add(callId);
      touch(watch);
    },
    toolFinished(callId: string): void {
      watch.openCalls.delete(callId);
      touch(watch);
      // The idle deadline may now be earlier than the armed tool deadline.
      arm(watch);
    },
    setHeld(value: boolean): void {
      watch.held = value;
      watch.lastActivityAt = watch.clock.now();
      arm(watch);
    },
    resultSeen: () => startExitGrace(watch),
    stop(): void {
      clear(watch);
      watch.phase = 'stopped';
    },
    get openToolCalls(): number {
      return watch.openCalls.size;
    },
  };
}

function start(watch: WatchdogState): void {
  if (watch.phase !== 'created') return;
  watch.phase = 'running';
  watch.startedAt = watch.clock.now();
  watch.lastActivityAt = watch.startedAt;
  arm(watch);
}

function clear(watch: WatchdogState): void {
  if (watch.timer !== undefined) watch.clock.clearTimeout(watch.timer);
  watch.timer = undefined;
}

function fire(watch: WatchdogState, firing: WatchdogFiring): void {
  clear(watch);
  watch.phase = 'stopped';
  watch.options.onFire(firing);
}

/** The earliest deadline that applies now, with what it means when it passes. */
function nextDeadline(watch: WatchdogState): { at: number; firing: WatchdogFiring } | undefined {
  const candidates: Array<{ at: number; firing: WatchdogFiring }> = [];
  if (watch.totalMs > 0) candidates.push({ at: watch.startedAt + watch.totalMs, firing: 'total_timeout' });
  if (!watch.held) {
    if (watch.openCalls.size > 0) candidates.push({ at: watch.lastActivityAt + watch.toolBudgetMs, firing: 'tool_timeout' });
    else if (watch.idleMs > 0) candidates.push({ at: watch.lastActivityAt + watch.idleMs, firing: 'idle_timeout' });
  }
  return candidates.sort((left, right) => left.at - right.at)[0];
}

function arm(watch: WatchdogState): void {
  clear(watch);
  if (watch.phase !== 'running') return;
  const deadline = nextDeadline(watch);
  if (!deadline) return;
  watch.timer = watch.clock.setTimeout(() => check(watch), Math.max(0, deadline.at - watch.clock.now()));
}

function check(watch: WatchdogState): void {
  watch.timer = undefined;
  if (watch.phase !== 'running') return;
  const deadline = nextDeadline(watch);
  if (deadline && watch.clock.now() >= deadline.at) fire(watch, deadline.firing);
  else arm(watch);
}

function touch(watch: WatchdogState): void {
  watch.lastActivityAt = watch.clock.now();
  // Only a tighter deadline needs re-arming; a later one is handled when the timer checks.
  if (watch.phase === 'running' && watch.timer === undefined) arm(watch);
}

/** The result is in: idle and total no longer apply, only the exit grace. */
function startExitGrace(watch: WatchdogState): void {
  if (watch.phase !== 'running') return;
  clear(watch);
  watch.phase = 'exiting';
  watch.timer = watch.clock.setTimeout(() => {
    watch.timer = undefined;
    if (watch.phase === 'exiting') fire(watch, 'exit_grace_elapsed');
  }, watch.exitGraceMs);
}
