import { descendantsIn, parseProcessStat, parseResidentKiB, parseSchedulerTimes } from './process-table';

describe('process table parsing', () => {
  it('reads state, parent, group, CPU ticks and start time after a command name with spaces and parentheses', () => {
    const stat = '4242 (node (fake) x) S 4000 4242 4000 0 -1 4194560 1 0 0 0 3 1 0 0 20 0 7 0 987654 1000 2000 18446744073709551615';
    expect(parseProcessStat(stat)).toEqual({ state: 'S', parentPid: 4000, processGroupId: 4242, startTime: 987654, cpuTicks: 4 });
  });

  it('refuses a truncated stat line instead of inventing a start time', () => {
    expect(() => parseProcessStat('4242 (node) S 4000 4242')).toThrow(/unexpected/);
  });

  it('reads VmRSS in KiB, and nothing for a zombie without one', () => {
    expect(parseResidentKiB('Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t   51234 kB\nThreads:\t7\n')).toBe(51234);
    expect(parseResidentKiB('Name:\tnode\nState:\tZ (zombie)\n')).toBeUndefined();
  });

  it('reads time on a CPU and time waiting for one from schedstat', () => {
    expect(parseSchedulerTimes('6473345 42475936 5\n')).toEqual({ runningNs: 6473345, waitingNs: 42475936 });
    expect(() => parseSchedulerTimes('')).toThrow(/unexpected/);
  });

  it('finds every descendant, grandchildren included, and nothing of other trees', () => {
    const table = [
      { pid: 10, parentPid: 1 },
      { pid: 11, parentPid: 10 },
      { pid: 12, parentPid: 10 },
      { pid: 13, parentPid: 11 },
      { pid: 20, parentPid: 1 },
    ];
    expect(descendantsIn(table, 10).sort()).toEqual([11, 12, 13]);
    expect(descendantsIn(table, 13)).toEqual([]);
  });
});
