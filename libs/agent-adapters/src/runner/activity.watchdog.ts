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

/**
 * Tells a stuck CLI from a slow one. One timer is armed for the nearest deadline and re-armed when it
 * fires early (activity moved the deadline), so a flood of lines costs no timer churn.
 */
export function createActivityWatchdog(options: ActivityWatchdogOptions): ActivityWatchdog {
  const clock = options.clock ?? systemWatchdogClock;
  const { idleMs, totalMs, exitGraceMs } = options.budgets;
  const toolBudgetMs = Math.max(options.budgets.toolBudgetMs, idleMs);
  const openCalls = new Set<string>();
  let phase: 'created' | 'running' | 'exiting' | 'stopped' = 'created';
  let startedAt = 0;
  let lastActivityAt = 0;
  let held = false;
  let timer: unknown;

  const clear = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };

  const fire = (firing: WatchdogFiring): void => {
    clear();
    phase = 'stopped';
    options.onFire(firing);
  };

  /** The earliest deadline that applies now, with what it means when it passes. */
  const nextDeadline = (): { at: number; firing: WatchdogFiring } | undefined => {
    const candidates: Array<{ at: number; firing: WatchdogFiring }> = [];
    if (totalMs > 0) candidates.push({ at: startedAt + totalMs, firing: 'total_timeout' });
    if (!held) {
      if (openCalls.size > 0) candidates.push({ at: lastActivityAt + toolBudgetMs, firing: 'tool_timeout' });
      else if (idleMs > 0) candidates.push({ at: lastActivityAt + idleMs, firing: 'idle_timeout' });
    }
    return candidates.sort((left, right) => left.at - right.at)[0];
  };

  const arm = (): void => {
    clear();
    if (phase !== 'running') return;
    const deadline = nextDeadline();
    if (!deadline) return;
    timer = clock.setTimeout(check, Math.max(0, deadline.at - clock.now()));
  };

  function check(): void {
    timer = undefined;
    if (phase !== 'running') return;
    const deadline = nextDeadline();
    if (deadline && clock.now() >= deadline.at) fire(deadline.firing);
    else arm();
  }

  const touch = (): void => {
    lastActivityAt = clock.now();
    // Only a tighter deadline needs re-arming; a later one is handled when the timer checks.
    if (phase === 'running' && timer === undefined) arm();
  };

  return {
    start(): void {
      if (phase !== 'created') return;
      phase = 'running';
      startedAt = clock.now();
      lastActivityAt = startedAt;
      arm();
    },
    recordActivity: touch,
    toolStarted(callId: string): void {
      openCalls.add(callId);
      touch();
    },
    toolFinished(callId: string): void {
      openCalls.delete(callId);
      touch();
      // The idle deadline may now be earlier than the armed tool deadline.
      arm();
    },
    setHeld(value: boolean): void {
      held = value;
      lastActivityAt = clock.now();
      arm();
    },
    resultSeen(): void {
      if (phase !== 'running') return;
      clear();
      phase = 'exiting';
      timer = clock.setTimeout(() => {
        timer = undefined;
        if (phase === 'exiting') fire('exit_grace_elapsed');
      }, exitGraceMs);
    },
    stop(): void {
      clear();
      phase = 'stopped';
    },
    get openToolCalls(): number {
      return openCalls.size;
    },
  };
}
