import { createActivityWatchdog, type WatchdogBudgets, type WatchdogClock, type WatchdogFiring } from './activity.watchdog';

/** A clock that only moves when the test says so. */
function createManualClock(): WatchdogClock & { advance(milliseconds: number): void } {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout: (callback, milliseconds) => {
      nextId += 1;
      timers.set(nextId, { at: now + milliseconds, callback });
      return nextId;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance(milliseconds: number): void {
      const target = now + milliseconds;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= target).sort(([, left], [, right]) => left.at - right.at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
  };
}

function givenWatchdog(budgets: Partial<WatchdogBudgets> = {}) {
  const clock = createManualClock();
  const firings: WatchdogFiring[] = [];
  const watchdog = createActivityWatchdog({
    budgets: { idleMs: 100, toolBudgetMs: 1000, totalMs: 0, exitGraceMs: 50, ...budgets },
    clock,
    onFire: (firing) => firings.push(firing),
  });
  watchdog.start();
  return { clock, firings, watchdog };
}

describe('activity watchdog', () => {
  it('fires idle_timeout after the idle budget of silence', () => {
    const { clock, firings } = givenWatchdog();
    clock.advance(99);
    expect(firings).toEqual([]);
    clock.advance(1);
    expect(firings).toEqual(['idle_timeout']);
  });

  it('restarts the silence clock on activity', () => {
    const { clock, firings, watchdog } = givenWatchdog();
    clock.advance(80);
    watchdog.recordActivity();
    clock.advance(80);
    expect(firings).toEqual([]);
    clock.advance(20);
    expect(firings).toEqual(['idle_timeout']);
  });

  it('allows the tool budget while a tool call is open, and the idle budget again once it closes', () => {
    const { clock, firings, watchdog } = givenWatchdog();
    watchdog.toolStarted('call-1');
    clock.advance(900);
    expect(firings).toEqual([]);
    watchdog.toolFinished('call-1');
    clock.advance(99);
    expect(firings).toEqual([]);
    clock.advance(1);
    expect(firings).toEqual(['idle_timeout']);
  });

  it('fires tool_timeout when an open tool call stays silent past the tool budget', () => {
    const { clock, firings, watchdog } = givenWatchdog();
    watchdog.toolStarted('call-1');
    watchdog.toolStarted('call-2');
    watchdog.toolFinished('call-1');
    clock.advance(1000);
    expect(firings).toEqual(['tool_timeout']);
  });

  it('never gives a tool less than the idle budget', () => {
    const { clock, firings, watchdog } = givenWatchdog({ idleMs: 100, toolBudgetMs: 10 });
    watchdog.toolStarted('call-1');
    clock.advance(99);
    expect(firings).toEqual([]);
    clock.advance(1);
    expect(firings).toEqual(['tool_timeout']);
  });

  it('fires total_timeout even while output keeps coming', () => {
    const { clock, firings, watchdog } = givenWatchdog({ totalMs: 250 });
    for (let step = 0; step < 5; step += 1) {
      clock.advance(60);
      watchdog.recordActivity();
    }
    expect(firings).toEqual(['total_timeout']);
  });

  it('after the result, only the exit grace applies: a lingering CLI is not "stuck"', () => {
    const { clock, firings, watchdog } = givenWatchdog({ totalMs: 120 });
    clock.advance(90);
    watchdog.resultSeen();
    clock.advance(49);
    expect(firings).toEqual([]);
    clock.advance(1);
    expect(firings).toEqual(['exit_grace_elapsed']);
  });

  it('does not count silence while the consumer holds the stream', () => {
    const { clock, firings, watchdog } = givenWatchdog();
    watchdog.setHeld(true);
    clock.advance(1000);
    expect(firings).toEqual([]);
    watchdog.setHeld(false);
    clock.advance(100);
    expect(firings).toEqual(['idle_timeout']);
  });

  it('fires at most once and not after stop', () => {
    const { clock, firings, watchdog } = givenWatchdog();
    clock.advance(500);
    watchdog.recordActivity();
    clock.advance(500);
    expect(firings).toEqual(['idle_timeout']);

    const second = givenWatchdog();
    second.watchdog.stop();
    second.clock.advance(10_000);
    expect(second.firings).toEqual([]);
  });

  it('treats a zero budget as disabled', () => {
    const { clock, firings } = givenWatchdog({ idleMs: 0, totalMs: 0 });
    clock.advance(1_000_000);
    expect(firings).toEqual([]);
  });
});
