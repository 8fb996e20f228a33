import { fakePrompt, readFakePrompt } from './fake-prompt';
import { formatSpawnRecord, parseSpawnRecords } from './spawn-log';

describe('fake agent prompt', () => {
  it('reads back the script it wrote, also from inside a stream-json user message', () => {
    const prompt = fakePrompt({ events: 4_000, rate: 200 });
    expect(readFakePrompt(prompt)).toEqual({ events: 4_000, rate: 200 });
    expect(readFakePrompt(JSON.stringify({ type: 'user', message: { content: `Run this.\n${prompt}` } }))).toEqual({ events: 4_000, rate: 200 });
  });

  it('defaults to 10 events at 100/s and never a zero rate', () => {
    expect(readFakePrompt('hello')).toEqual({ events: 10, rate: 100 });
    expect(readFakePrompt(fakePrompt({ events: 3, rate: 0 }))).toEqual({ events: 3, rate: 1 });
  });
});

describe('spawn log', () => {
  it('parses complete lines and keeps a partial last line for the next read', () => {
    const spawned = formatSpawnRecord({ event: 'spawned', taskId: 't1', pid: 7, startedAt: 1000.5, readyAt: 1030.25 });
    const tree = formatSpawnRecord({ event: 'tree', taskId: 't1', pid: 7, childPid: 8 });

    const first = parseSpawnRecords(spawned + tree.slice(0, 10));
    const second = parseSpawnRecords(first.rest + tree.slice(10));

    expect(first.records).toEqual([{ event: 'spawned', taskId: 't1', pid: 7, startedAt: 1000.5, readyAt: 1030.25 }]);
    expect(second).toEqual({ records: [{ event: 'tree', taskId: 't1', pid: 7, childPid: 8 }], rest: '' });
  });

  it('refuses a line that is not a spawn record', () => {
    expect(() => parseSpawnRecords('{"event":"exited","taskId":"t1","pid":7}\n')).toThrow(/not a spawn record/);
  });
});
