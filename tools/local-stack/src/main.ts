import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bootstrapLocalBus, type Resource } from './local-bus';
import { localDaemonEnrollment } from './local-daemon-enrollment';
import { firstOwnerSignInLink } from './first-owner-sign-in';
import { generateSecretKey, runMigrations, startEmbeddedDatabase } from '@switchyard/persistence';
import { ConfigValidationError, PRIVATE_FILE_MODE, preparePrivateDirectory, prepareStateDirectory, redactConfig } from '@switchyard/service-kit';
import { findFreePort, isPortFree } from './free-port';
import { loadLocalStackConfig, type LocalStackConfig } from './local-stack.config';
import { runtimeBannerLines, type DetectionSummary } from './runtime-banner';
import { entryPath, LOCAL_SERVICES } from './service-catalog';
import { ServiceProcess, waitUntilReady } from './service-process';
import { say, sayError } from './terminal-output';

const STOP_GRACE_MS = 10_000;

/** `npm start`: NATS, the database, migrations, every service and one daemon on this machine. */
async function main(): Promise<void> {
  const startedAt = Date.now();
  const config = loadLocalStackConfig();
  const distDirectory = path.resolve(__dirname, '../../..');
  // Owner-only state, by explicit modes rather than a process umask: the daemon and its agent
  // CLIs are children of this process and would inherit a umask into the user's repositories.
  prepareStateDirectory(config.homeDirectory);
  preparePrivateDirectory(path.join(config.homeDirectory, 'logs'));
  const daemonPath = daemonSearchPath(path.resolve(distDirectory, '..'));

  const resources: Resource[] = [];
  const services: ServiceProcess[] = [];
  let shuttingDown = false;

  const shutdown = async (exitCode: number): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    say('stopping...');
    // Services first (they drain to NATS and the database), then what they depend on.
    await Promise.all([...services].reverse().map((service) => service.stop(STOP_GRACE_MS)));
    for (const resource of [...resources].reverse()) {
      await resource.stop().catch((error: unknown) => sayError(`could not stop ${resource.label}: ${String(error)}`));
    }
    rmSync(stackFilePath(config), { force: true });
    say('stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.on('exit', () => services.forEach((service) => service.killNow()));

  try {
    const nats = await bootstrapLocalBus(config, resources);
    const database = await provideDatabase(config, resources);
    const { applied } = await runMigrations({ url: database.url });
    say(`migrations: ${applied.length === 0 ? 'up to date' : `applied ${applied.join(', ')}`}`);

    const listening: Array<{ name: string; url: string }> = [];
    const deadline = startedAt + config.SWITCHYARD_READY_TIMEOUT_MS;
    const apiToken = process.env['GATEWAY_BOOTSTRAP_TOKEN'] ?? localApiToken(config);
    const launch = async (definition: (typeof LOCAL_SERVICES)[number], extraEnv: NodeJS.ProcessEnv = {}): Promise<void> => {
      const port = definition.name === 'gateway' ? await gatewayPort(config) : await findFreePort(config.SWITCHYARD_HOST);
      const url = `http://${config.SWITCHYARD_HOST}:${port}`;
      const service = new ServiceProcess({
        name: definition.name,
        entry: entryPath(distDirectory, definition),
        env: {
          ...childEnvironment({ config, natsUrl: nats.url, databaseUrl: definition.needsDatabase ? database.url : undefined, port, daemonPath, apiToken }),
          ...(await nats.environmentOf(definition.name)),
          ...extraEnv,
        },
        logFile: path.join(config.homeDirectory, 'logs', `${definition.name}.log`),
        verbose: config.SWITCHYARD_VERBOSE,
        onUnexpectedExit: (name, code, signal) => {
          sayError(`${name} exited unexpectedly (code ${code}, signal ${signal}); see ${path.join(config.SWITCHYARD_HOME, 'logs', `${name}.log`)}`);
          void shutdown(1);
        },
      });
      services.push(service);
      listening.push({ name: definition.name, url });
    };
    const waitForAll = (): Promise<unknown> => Promise.all(services.map((service, index) => waitUntilReady({ url: listening[index]!.url, process: service, deadline })));
    // The services first; then the daemon, which enrolls with the gateway on its first start.
    for (const definition of LOCAL_SERVICES.filter((entry) => entry.name !== 'daemon')) await launch(definition);
    await waitForAll();
    const gatewayUrl = listening.find((entry) => entry.name === 'gateway')!.url;
    for (const definition of LOCAL_SERVICES.filter((entry) => entry.name === 'daemon')) {
      // The gateway its agents call back with their task tokens, enrolled or not.
      await launch(definition, { ...(await localDaemonEnrollment({ home: config.homeDirectory, gatewayUrl, apiToken })), DAEMON_GATEWAY_URL: gatewayUrl });
    }
    await waitForAll();

    writeStackFile(config, {
      services: services.map((service, index) => ({ name: service.name, url: listening[index]!.url, pid: service.pid })),
      nats: nats.url,
      // No password in a file on disk.
      database: redactConfig({ url: database.url })['url'],
    });
    say(`ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    for (const { name, url } of listening) say(`  ${name.padEnd(15)} ${url}${name === 'gateway' ? '   <- REST + WebSocket' : ''}`);
    say(`  ${'nats'.padEnd(15)} ${nats.url}${nats.privateServer ? ` (private, store ${path.join(config.SWITCHYARD_HOME, 'nats')})` : ''}`);
    say(`  ${'database'.padEnd(15)} ${database.description}`);
    say(`  ${'logs'.padEnd(15)} ${path.join(config.SWITCHYARD_HOME, 'logs')}/`);
    say(`  ${'api token'.padEnd(15)} ${path.join(config.SWITCHYARD_HOME, 'api-token')} (workspace default; \`npx yard runtime list\` finds it)`);
    for (const line of runtimeLines(config)) say(`  ${line}`);
    const ownerEmail = process.env['GATEWAY_BOOTSTRAP_OWNER_EMAIL'] ?? 'owner@switchyard.local';
    const signIn = await firstOwnerSignInLink({ distDirectory, databaseUrl: database.url, gatewayUrl, email: ownerEmail });
    if ('link' in signIn) say(`  ${'sign in'.padEnd(15)} ${signIn.link} (${ownerEmail}, owner of default; good once for 30 min, then set a password)`);
    else sayError(`no sign-in link for ${ownerEmail}: ${signIn.failed}`);
    say('press Ctrl-C to stop');
  } catch (error) {
    sayError(error instanceof Error ? error.message : String(error));
    await shutdown(1);
  }
}

/** Where the running stack says what it started, for tools (and tests) that need to find it. */
function stackFilePath(config: LocalStackConfig): string {
  return path.join(config.homeDirectory, 'stack.json');
}

function writeStackFile(config: LocalStackConfig, state: Record<string, unknown>): void {
  writeFileSync(stackFilePath(config), `${JSON.stringify({ pid: process.pid, ...state }, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}

async function provideDatabase(config: LocalStackConfig, resources: Resource[]): Promise<{ url: string; description: string }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, description: 'DATABASE_URL' };
  const dataDirectory = path.join(config.homeDirectory, 'pgdata');
  const database = await startEmbeddedDatabase({ dataDirectory });
  resources.push({ label: 'embedded database', stop: () => database.stop() });
  return { url: database.url, description: `embedded (PGlite) ${database.url}, data ${path.join(config.SWITCHYARD_HOME, 'pgdata')}` };
}

async function gatewayPort(config: LocalStackConfig): Promise<number> {
  const port = config.SWITCHYARD_GATEWAY_PORT;
  if (port === 0) return findFreePort(config.SWITCHYARD_HOST);
  if (!(await isPortFree(port, config.SWITCHYARD_HOST))) {
    throw new Error(`port ${port} is in use; set SWITCHYARD_GATEWAY_PORT to another port (0 picks a free one)`);
  }
  return port;
}

/**
 * Where the local daemon looks for agent CLIs: DAEMON_PATH when set; otherwise the user's PATH and
 * then the CLIs `npm install` pins in tests/agent-clis, so a fresh clone runs agents with no set-up
 * while a CLI the user installed and signed in to still wins.
 */
function daemonSearchPath(repositoryRoot: string): string {
  if (process.env['DAEMON_PATH']) return process.env['DAEMON_PATH'];
  const pinned = path.join(repositoryRoot, 'tests', 'agent-clis', 'node_modules', '.bin');
  return [process.env['PATH'] ?? '', existsSync(pinned) ? pinned : ''].filter(Boolean).join(path.delimiter);
}

/** The daemon writes what it detected before it reports ready; a missing or broken file is said, not hidden. */
function runtimeLines(config: LocalStackConfig): string[] {
  const howToAdd = 'Install one (npm install also installs the pinned CLIs into tests/agent-clis) or set DAEMON_PATH, then restart.';
  try {
    const summary = JSON.parse(readFileSync(path.join(config.homeDirectory, 'detection.json'), 'utf8')) as DetectionSummary;
    return runtimeBannerLines(summary, howToAdd);
  } catch (error) {
    return [`runtimes        unknown: the daemon's detection.json could not be read (${error instanceof Error ? error.message : String(error)}); see logs/daemon.log`];
  }
}

/**
 * A value of this home made once and kept owner-only (`<home>/<name>`), so what it protects
 * survives a restart of the stack: the task-token key, each service's secret keys, the API token.
 */
function keptLocalSecret(config: LocalStackConfig, name: string, make: () => string): string {
  const file = path.join(config.homeDirectory, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // A folder of its own is ours (0700); the home itself keeps the mode it had.
  if (path.dirname(name) !== '.') preparePrivateDirectory(path.dirname(file));
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: PRIVATE_FILE_MODE });
  return value;
}

const localTaskTokenSecret = (config: LocalStackConfig): string => keptLocalSecret(config, 'task-token-secret', () => randomBytes(32).toString('hex'));

/** `QUEUE_SECRET_KEYS` or `GATEWAY_SECRET_KEYS`, under `secrets/`: what the service sealed stays readable. */
const localSecretKeys = (config: LocalStackConfig, service: 'queue' | 'gateway'): string => keptLocalSecret(config, path.join('secrets', `${service}-secret-keys`), generateSecretKey);

/** The stack's own API token (workspace `default`), kept across restarts for `yard` and clients. */
const localApiToken = (config: LocalStackConfig): string => keptLocalSecret(config, 'api-token', () => `sy_${randomBytes(32).toString('base64url')}`);

function childEnvironment(options: {
  readonly config: LocalStackConfig;
  readonly natsUrl: string;
  readonly databaseUrl: string | undefined;
  readonly port: number;
  readonly daemonPath: string;
  readonly apiToken: string;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: options.natsUrl,
    PORT: String(options.port),
    HOST: options.config.SWITCHYARD_HOST,
    SWITCHYARD_HOME: options.config.homeDirectory,
    DAEMON_PATH: options.daemonPath,
    QUEUE_TASK_TOKEN_SECRET: process.env['QUEUE_TASK_TOKEN_SECRET'] ?? localTaskTokenSecret(options.config),
    QUEUE_SECRET_KEYS: process.env['QUEUE_SECRET_KEYS'] ?? localSecretKeys(options.config, 'queue'),
    GATEWAY_SECRET_KEYS: process.env['GATEWAY_SECRET_KEYS'] ?? localSecretKeys(options.config, 'gateway'),
    GATEWAY_BOOTSTRAP_TOKEN: options.apiToken,
    // A laptop's NATS need not reserve the production stream sizes.
    SWITCHYARD_STREAM_MAX_BYTES_CAP: process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ?? String(256 * 1024 * 1024),
  };
  if (options.databaseUrl) env['DATABASE_URL'] = options.databaseUrl;
  else delete env['DATABASE_URL'];
  // One port would be given to five processes: all but the first would fail to boot. The local
  // stack serves no metrics (docs/operations/observability.md).
  delete env['METRICS_PORT'];
  return env;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigValidationError) sayError(error.message);
  else sayError(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
