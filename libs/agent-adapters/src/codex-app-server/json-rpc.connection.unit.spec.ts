import { createJsonRpcConnection, JsonRpcConnectionClosedError, JsonRpcResponseError } from './json-rpc.connection';

function connectionWithLog(options: { onRequest?: (method: string, params: unknown) => unknown; onNotification?: (method: string, params: unknown) => void } = {}) {
  const written: unknown[] = [];
  const connection = createJsonRpcConnection({
    write: (line) => {
      written.push(JSON.parse(line));
      return Promise.resolve();
    },
    ...options,
  });
  return { connection, written };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('JSON-RPC connection', () => {
  it('pairs responses with requests by id, in any order, and rejects error responses with their code', async () => {
    const { connection, written } = connectionWithLog();
    const first = connection.request('thread/start', { cwd: '/w' });
    const second = connection.request('thread/resume', { threadId: 'nope' });
    await settle();
    expect(written).toEqual([
      { id: 1, method: 'thread/start', params: { cwd: '/w' } },
      { id: 2, method: 'thread/resume', params: { threadId: 'nope' } },
    ]);

    expect(connection.receive({ id: 2, error: { code: -32600, message: 'no rollout found for thread id nope' } })).toBe('response');
    expect(connection.receive({ id: 1, result: { thread: { id: 't' } } })).toBe('response');

    await expect(first).resolves.toEqual({ thread: { id: 't' } });
    await expect(second).rejects.toMatchObject({ name: 'JsonRpcResponseError', code: -32600, method: 'thread/resume' });
    await expect(second).rejects.toBeInstanceOf(JsonRpcResponseError);
  });

  it('answers server requests (id 0 included) and dispatches notifications', async () => {
    const notifications: string[] = [];
    const { connection, written } = connectionWithLog({
      onRequest: (method) => {
        if (method === 'item/commandExecution/requestApproval') return { decision: 'accept' };
        throw new JsonRpcResponseError({ method, error: { code: -32601, message: `unsupported ${method}` } });
      },
      onNotification: (method) => notifications.push(method),
    });

    expect(connection.receive({ id: 0, method: 'item/commandExecution/requestApproval', params: {} })).toBe('request');
    expect(connection.receive({ id: 1, method: 'item/tool/requestUserInput', params: {} })).toBe('request');
    expect(connection.receive({ method: 'turn/started', params: {} })).toBe('notification');
    expect(connection.receive({ id: 99, result: {} })).toBe('unknown');
    await settle();

    expect(notifications).toEqual(['turn/started']);
    expect(written).toEqual([
      { id: 0, result: { decision: 'accept' } },
      { id: 1, error: { code: -32601, message: 'unsupported item/tool/requestUserInput' } },
    ]);
  });

  it('serializes writes: a slow write holds back the next one', async () => {
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const connection = createJsonRpcConnection({
      write: (line) => {
        const method = (JSON.parse(line) as { method: string }).method;
        order.push(`start ${method}`);
        if (method === 'first') return new Promise<void>((resolve) => (releaseFirst = () => (order.push('end first'), resolve())));
        return Promise.resolve();
      },
    });
    const notified = Promise.all([connection.notify('first'), connection.notify('second')]);
    await settle();
    expect(order).toEqual(['start first']);
    releaseFirst();
    await notified;
    expect(order).toEqual(['start first', 'end first', 'start second']);
  });

  it('rejects every pending request with the reason when closed, and later ones at once', async () => {
    const { connection } = connectionWithLog();
    const pending = connection.request('turn/start', {});
    connection.close(new Error('codex app-server exited (code 1)'));

    await expect(pending).rejects.toBeInstanceOf(JsonRpcConnectionClosedError);
    await expect(pending).rejects.toThrow('turn/start got no answer: codex app-server exited (code 1)');
    await expect(connection.request('turn/interrupt', {})).rejects.toThrow('turn/interrupt not sent');
    await expect(connection.closed).resolves.toThrow('codex app-server exited (code 1)');
  });
});
