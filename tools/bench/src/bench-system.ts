import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mintUserCredentials, writeCredentialsFile, type BusAuthority, type BusIdentity, type MessagingConnection } from '@switchyard/messaging';
import { generateSecretKey } from '@switchyard/persistence';
import type { CleanupStack } from './cleanup-stack';
import { installFakeClaude, type FakeClaudeInstallation } from './fake-agent/fake-agent.installer';
import { createGatewayClient, type GatewayClient } from './gateway.client';
import { startServiceProcess, type ServiceProcess } from './service-process';

export type BenchServiceName = 'queue' | 'session-resume' | 'transcript' | 'gateway';

export interface BenchDaemon {
  readonly process: ServiceProcess;
  /** Its (fake) Claude Code runtime, online in the gateway's view. */
  readonly runtimeId: string;
  /** Its SWITCHYARD_HOME (the outbox is under it). */
  readonly home: string;
}

/**
 * Switchyard as built processes on the bench's namespace and database, started on first need and
 * stopped (with every temporary directory removed) by the run's cleanup stack.
 */
export interface BenchSystem {
  readonly connection: MessagingConnection;
  readonly databaseUrl: string;
  service(name: BenchServiceName): Promise<ServiceProcess>;
  /** The gateway with everything a task needs behind it: queue, session-resume, transcript. */
  gateway(): Promise<GatewayClient>;
  fakeClaude(): FakeClaudeInstallation;
  /** A daemon whose only agent CLI is the fake `claude`, in its own SWITCHYARD_HOME. */
  startDaemon(options: { readonly daemonId: string; readonly maxSlots?: number }): Promise<BenchDaemon>;
  /** One daemon shared by the sections that do not measure the daemon itself. */
  sharedDaemon(): Promise<BenchDaemon>;
  temporaryDirectory(label: string): string;
  /** NATS_URL, SWITCHYARD_NAMESPACE and a credentials file of its own (a `tooling` user) for a bare Node process of the bench. */
  bareProcessEnv(name: string): Promise<NodeJS.ProcessEnv>;
}

const START_TIMEOUT_MS = 60_000;

/** Every process's environment: the bench's NATS, database and namespace; the gateway's bootstrap token. */
function benchEnvironments(options: { readonly natsUrl: string; readonly databaseUrl: string; readonly namespace: string }) {
  const token = `sy_bench-${randomBytes(16).toString('hex')}`;
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: options.natsUrl,
    DATABASE_URL: options.databaseUrl,
    SWITCHYARD_NAMESPACE: options.namespace,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const serviceEnv: Record<BenchServiceName, NodeJS.ProcessEnv> = {
    queue: { ...baseEnv, QUEUE_TASK_TOKEN_SECRET: randomBytes(24).toString('hex'), QUEUE_SECRET_KEYS: generateSecretKey() },
    'session-resume': baseEnv,
    transcript: baseEnv,
    gateway: { ...baseEnv, GATEWAY_BOOTSTRAP_TOKEN: token, GATEWAY_SECRET_KEYS: generateSecretKey() },
  };
  return { token, baseEnv, serviceEnv };
}

export function createBenchSystem(options: {
  readonly natsUrl: string;
  readonly authority: BusAuthority;
  readonly databaseUrl: string;
  readonly namespace: string;
  readonly connection: MessagingConnection;
  readonly cleanup: CleanupStack;
}): BenchSystem {
  const { cleanup } = options;
  const { token, baseEnv, serviceEnv } = benchEnvironments(options);
  const started = new Map<BenchServiceName, Promise<ServiceProcess>>();
  let fake: FakeClaudeInstallation | undefined;
  let gatewayClient: Promise<GatewayClient> | undefined;
  let shared: Promise<BenchDaemon> | undefined;

  const credentialsDirectory = temporaryDirectory('credentials');
  // Each process connects as itself with its own grant, as deployed: the bench measures that.
  const launch = async (entry: string, env: NodeJS.ProcessEnv, identity: BusIdentity): Promise<ServiceProcess> => {
    const { creds } = await mintUserCredentials(options.authority, { identity, namespace: options.namespace });
    const credentials = writeCredentialsFile(path.join(credentialsDirectory, `${randomBytes(6).toString('hex')}.creds`), creds);
    const child = await startServiceProcess({ entry, env: { ...env, NATS_CREDENTIALS_FILE: credentials }, timeoutMs: START_TIMEOUT_MS });
    cleanup.defer(`stop ${entry} (pid ${child.pid})`, () => child.stop());
    return child;
  };
  function temporaryDirectory(label: string): string {
    const directory = mkdtempSync(path.join(tmpdir(), `switchyard-bench-${label}-`));
    cleanup.defer(`remove ${directory}`, () => rmSync(directory, { recursive: true, force: true }));
    return directory;
  }
  const system: BenchSystem = {
    connection: options.connection,
    databaseUrl: options.databaseUrl,
    service(name) {
      let running = started.get(name);
      if (!running) {
        running = launch(`services/${name}/src/main.js`, serviceEnv[name], { kind: 'service', name });
        started.set(name, running);
      }
      return running;
    },
    gateway() {
      gatewayClient ??= (async () => {
        for (const name of ['queue', 'session-resume', 'transcript'] as const) await system.service(name);
        const gateway = await system.service('gateway');
        return createGatewayClient({ url: gateway.url, token });
      })();
      return gatewayClient;
    },
    fakeClaude() {
      if (!fake) {
        const installed = installFakeClaude();
        cleanup.defer(`remove ${installed.directory}`, () => rmSync(installed.directory, { recursive: true, force: true }));
        fake = installed;
      }
      return fake;
    },
    async startDaemon({ daemonId, maxSlots }) {
      const gateway = await system.gateway();
      const home = temporaryDirectory(`${daemonId}-home`);
      const child = await launch('services/daemon/src/main.js', {
        ...baseEnv,
        DAEMON_ID: daemonId,
        DAEMON_PATH: system.fakeClaude().directory,
        SWITCHYARD_HOME: home,
        ...(maxSlots === undefined ? {} : { DAEMON_MAX_SLOTS: String(maxSlots) }),
      }, { kind: 'daemon', daemonId });
      const runtimeId = `${daemonId}-claude-code`;
      await gateway.waitForRuntime(runtimeId, START_TIMEOUT_MS);
      return { process: child, runtimeId, home };
    },
    sharedDaemon() {
      shared ??= system.startDaemon({ daemonId: 'bench-daemon' });
      return shared;
    },
    temporaryDirectory,
    async bareProcessEnv(name) {
      const { creds } = await mintUserCredentials(options.authority, { identity: { kind: 'tooling', name }, namespace: options.namespace });
      const credentials = writeCredentialsFile(path.join(credentialsDirectory, `${randomBytes(6).toString('hex')}.creds`), creds);
      return { ...process.env, NATS_URL: options.natsUrl, SWITCHYARD_NAMESPACE: options.namespace, NATS_CREDENTIALS_FILE: credentials };
    },
  };
  return system;
}
