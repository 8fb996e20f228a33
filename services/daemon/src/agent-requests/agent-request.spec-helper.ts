import { request } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** One HTTP request over the unix socket, as any local process could send it: no client of ours in the way. */
export function requestOverSocket(options: { readonly socketPath: string; readonly method: string; readonly path: string; readonly token?: string; readonly body?: string | Buffer }): Promise<RawAnswer> {
  const headers: Record<string, string | number> = { ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) };
  if (options.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body) });
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath: options.socketPath, method: options.method, path: options.path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** A promise to settle from outside: a gate a fake checkout waits behind, or a signal it gives. */
export function deferred<T = void>(): { readonly promise: Promise<T>; readonly resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
