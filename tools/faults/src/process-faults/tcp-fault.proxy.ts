import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of a server (here: Postgres) that a test can cut: `cut()`
 * resets every live connection and stops listening, so new connections are refused, as when the
 * server is down; `restore()` listens again on the same port.
 */
export interface TcpFaultProxy {
  readonly port: number;
  /** Connections accepted so far (all time), and those open now. */
  stats(): { readonly accepted: number; readonly open: number; readonly refusedWhileCut: boolean };
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpFaultProxy(options: { readonly targetHost: string; readonly targetPort: number }): Promise<TcpFaultProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const handle = (client: Socket): void => {
    accepted += 1;
    const upstream = connect({ host: options.targetHost, port: options.targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      // A reset on one side ends the other: the proxy never leaves a half-open pair behind.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const listen = (port: number): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer(handle);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | undefined = await listen(0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no TCP address');
  const port = address.port;
  const stopListening = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    port,
    stats: () => ({ accepted, open: sockets.size / 2, refusedWhileCut: server === undefined }),
    async cut() {
      // Close the listener first, so nothing new slips in while the live pairs are reset.
      const closing = stopListening();
      for (const socket of sockets) socket.resetAndDestroy();
      await closing;
    },
    async restore() {
      server ??= await listen(port);
    },
    async close() {
      const closing = stopListening();
      for (const socket of sockets) socket.destroy();
      await closing;
    },
  };
}
