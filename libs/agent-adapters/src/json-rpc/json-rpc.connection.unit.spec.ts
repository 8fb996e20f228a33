import type { JsonRpcFrame } from './json-rpc.types';
import { createJsonRpcConnection, JsonRpcConnectionClosedError, JsonRpcRemoteError } from './json-rpc.connection';

function harness(options: { onRequest?: (method: string, params: unknown) => unknown; write?: (line: string) => Promise<void> } = {}) {
  const written: JsonRpcFrame[] = [];
  const notifications: Array<[string, unknown]> = [];
  const connection = createJsonRpcConnection({
    write:
      options.write ??
      ((line) => {
        written.push(JSON.parse(line) as JsonRpcFrame);
        return Promise.resolve();
      }),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    onNotification: (method, params) => notifications.push([method, params]),
  });
  return { connection, written, notifications };
}

const flushMicrotasks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('JSON-RPC connection', () => {
  it('matches responses to pending requests by id, in any order, and names the answered method', async () => {
    const { connection, written } = harness();
    const first = connection.request<{ value: number }>('first', { a: 1 });
    const second = connection.request<{ value: number }>('second');
    await flushMicrotasks();
    expect(written).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'first', params: { a: 1 } },
      { jsonrpc: '2.0', id: 2, method: 'second' },
    ]);

    expect(connection.receive({ jsonrpc: '2.0', id: 2, result: { value: 2 } })).toBe('second');
    expect(connection.receive({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error', data: { details: 'boom' } } })).toBe('first');

    await expect(second).resolves.toEqual({ value: 2 });
    await expect(first).rejects.toThrow('first failed (-32603): Internal error: boom');
    await expect(first).rejects.toMatchObject({ code: -32603, method: 'first' });
  });

  it('answers a peer request whose id is 0 (Codex numbers its approval requests from 0), and accepts frames without "jsonrpc"', async () => {
    const { connection, written } = harness({ onRequest: () => ({ decision: 'accept' }) });
    connection.receive({ id: 0, method: 'item/commandExecution/requestApproval', params: {} });
    await flushMicrotasks();
    await flushMicrotasks();
    expect(written).toEqual([{ jsonrpc: '2.0', id: 0, result: { decision: 'accept' } }]);
  });

  it('writes frames one at a time, in order, even when a write is slow', async () => {
    const lines: string[] = [];
    let active = 0;
    const { connection } = harness({
      write: async (line) => {
        active += 1;
        expect(active).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        lines.push(line);
        active -= 1;
      },
    });
    await Promise.all([connection.notify('a'), connection.notify('b'), connection.notify('c')]);
    expect(lines.map((line) => (JSON.parse(line) as { method: string }).method)).toEqual(['a', 'b', 'c']);
  });

  it('answers requests from the peer with the handler result, its error, or method-not-found', async () => {
    const { connection, written } = harness({
      onRequest: (method) => {
        if (method === 'ok') return { fine: true };
        if (method === 'remote') throw new JsonRpcRemoteError(method, { code: 7, message: 'nope' });
        throw new Error('handler broke');
      },
    });
    connection.receive({ jsonrpc: '2.0', id: 'a', method: 'ok', params: {} });
    connection.receive({ jsonrpc: '2.0', id: 'b', method: 'remote' });
    connection.receive({ jsonrpc: '2.0', id: 'c', method: 'other' });
    await flushMicrotasks();
    expect(written).toEqual([
      { jsonrpc: '2.0', id: 'a', result: { fine: true } },
      { jsonrpc: '2.0', id: 'b', error: { code: 7, message: 'nope' } },
      { jsonrpc: '2.0', id: 'c', error: { code: -32603, message: 'handler broke' } },
    ]);

    const bare = harness();
    bare.connection.receive({ jsonrpc: '2.0', id: 9, method: 'fs/read_text_file' });
    await flushMicrotasks();
    expect(bare.written).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found: fs/read_text_file' } }]);
  });

  it('dispatches notifications', () => {
    const { connection, notifications } = harness();
    connection.receive({ jsonrpc: '2.0', method: 'session/update', params: { x: 1 } });
    expect(notifications).toEqual([['session/update', { x: 1 }]]);
  });

  it('rejects every pending request when closed, and refuses new ones', async () => {
    const { connection } = harness();
    const pending = connection.request('slow');
    connection.close('the agent exited (code 1)');
    await expect(pending).rejects.toBeInstanceOf(JsonRpcConnectionClosedError);
    await expect(pending).rejects.toThrow('the JSON-RPC connection closed: the agent exited (code 1)');
    await expect(connection.request('later')).rejects.toThrow('the agent exited (code 1)');
    await expect(connection.closed).resolves.toBeInstanceOf(JsonRpcConnectionClosedError);
  });

  it('rejects a request whose frame could not be written', async () => {
    const { connection } = harness({ write: () => Promise.reject(new Error('EPIPE')) });
    await expect(connection.request('lost')).rejects.toThrow('EPIPE');
  });
});
