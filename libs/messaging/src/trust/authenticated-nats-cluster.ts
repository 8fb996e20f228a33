import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { NatsServerProcess } from '../nats-server/nats-server.process';
import { startAuthenticatedNatsServer } from './authenticated-nats-server';
import type { BusAuthority } from './bus-authority';

/** One server of the cluster: killable and restartable on its ports and store, as a node is lost and comes back. */
export interface NatsClusterMember {
  /** Its `server_name`: what JetStream reports as a stream's leader. */
  readonly name: string;
  readonly url: string;
  pid(): number;
  running(): boolean;
  /** Sends the signal and waits until the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same ports and store, and waits until it is healthy (caught up with the cluster). */
  restart(): Promise<void>;
}

export interface AuthenticatedNatsCluster {
  /** Every member's client URL: what NATS_URL lists, comma-separated. */
  readonly urls: readonly string[];
  readonly members: readonly NatsClusterMember[];
  member(name: string): NatsClusterMember;
  /** Stops every server and removes the directory. */
  stop(): Promise<void>;
}

export interface StartAuthenticatedNatsClusterOptions {
  /** Each member gets a folder under it (config, JetStream store, resolver). */
  readonly directory: string;
  readonly authority: BusAuthority;
  /** 3 or 5: a cluster keeps its streams while a majority of servers is up. */
  readonly size: number;
  readonly name?: string;
  readonly healthyWithinMs?: number;
}

/**
 * A JetStream cluster of operator-mode nats-servers on loopback (tests and the bench: what the
 * chart's NATS StatefulSet runs, one process per server). Resolves once every server reports
 * healthy, i.e. the cluster elected its meta leader and JetStream takes streams.
 */
export async function startAuthenticatedNatsCluster(options: StartAuthenticatedNatsClusterOptions): Promise<AuthenticatedNatsCluster> {
  if (options.size < 3 || options.size % 2 === 0) throw new Error(`a JetStream cluster needs an odd number of servers, at least 3 (asked: ${options.size})`);
  const host = '127.0.0.1';
  const clusterName = options.name ?? 'switchyard';
  const routePassword = randomBytes(18).toString('base64url');
  const ports = await freePorts(options.size * 3);
  const routePorts = ports.slice(options.size, options.size * 2);
  const healthyWithinMs = options.healthyWithinMs ?? 30_000;
  const members = Array.from({ length: options.size }, (_, index) => {
    const name = `${clusterName}-${index}`;
    const clientPort = ports[index]!;
    const monitorPort = ports[options.size * 2 + index]!;
    const boot = (): Promise<NatsServerProcess> =>
      startAuthenticatedNatsServer({
        directory: path.join(options.directory, name),
        authority: options.authority,
        host,
        port: clientPort,
        monitorPort,
        cluster: { clusterName, serverName: name, routePort: routePorts[index]!, routePorts, routePassword },
      });
    let server: NatsServerProcess | undefined;
    let alive = false;
    const member: NatsClusterMember & { boot(): Promise<void>; healthy(): Promise<void>; stop(): Promise<void> } = {
      name,
      url: `nats://${host}:${clientPort}`,
      pid: () => server?.pid ?? -1,
      running: () => alive,
      async boot() {
        server = await boot();
        alive = true;
      },
      healthy: () => waitForHealthz(`http://${host}:${monitorPort}/healthz`, healthyWithinMs, name),
      async kill(signal) {
        if (!server || !alive) return;
        process.kill(server.pid, signal);
        // `stop` waits for the exit the signal causes.
        await server.stop();
        alive = false;
      },
      async restart() {
        await member.boot();
        await member.healthy();
      },
      async stop() {
        if (server && alive) await server.stop();
        alive = false;
      },
    };
    return member;
  });
  const stopAll = async (): Promise<void> => {
    for (const member of members) await member.stop();
    await rm(options.directory, { recursive: true, force: true });
  };
  try {
    // All at once: each waits for its routes, and the meta leader needs a majority.
    await Promise.all(members.map((member) => member.boot()));
    await Promise.all(members.map((member) => member.healthy()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    urls: members.map((member) => member.url),
    members,
    member(name) {
      const found = members.find((member) => member.name === name);
      if (!found) throw new Error(`no server ${name} in the cluster (${members.map((member) => member.name).join(', ')})`);
      return found;
    },
    stop: stopAll,
  };
}

/** Ports free right now, from the kernel (a later bind may race another process; loopback tests accept that). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** `/healthz` answers 200 once the server's JetStream is current with the cluster's meta leader. */
async function waitForHealthz(url: string, timeoutMs: number, name: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`nats-server ${name} not healthy within ${timeoutMs} ms: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
