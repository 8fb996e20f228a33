import path from 'node:path';
import { parseArgs } from 'node:util';
import { BusSetupError } from './bus-setup.error';
import { requestEnrollmentToken } from './enrollment-token.client';
import { writeDeploymentBus, type WrittenFile } from './deployment-bus.writer';
import { parseInitOptions } from './init.options';

export const USAGE = `bus-setup — NATS operator-mode material for a Switchyard deployment (docs/operations/deploy.md)

  npm run bus -- init --out <dir> [--authority-dir <dir>] [--namespace <ns>]
                      [--host <host>] [--port <port>] [--jetstream-dir <dir>] [--resolver-dir <dir>]
                      [--tls-cert <file> --tls-key <file>]
      Writes <dir>/nats-server.conf, nats-operator.conf, <service>.creds for each service and
      enrollment-authority.json (0700/0600). The authority is created in --authority-dir
      (default <dir>/authority) on first use and reused after. --jetstream-dir, --resolver-dir,
      --tls-cert and --tls-key are paths as the NATS server sees them (defaults /data/jetstream,
      /data/resolver; --port=-1 lets it pick a port). --namespace must equal the deployment's
      SWITCHYARD_NAMESPACE.

  npm run bus -- enrollment-token --gateway <url>
      Prints a one-time daemon enrollment token (sye_...) of the workspace of the API token in
      SWITCHYARD_API_TOKEN.

  Exit code: 0 done, 1 failed, 2 usage error.`;

export interface CommandOutput {
  readonly out: (line: string) => void;
  readonly error: (line: string) => void;
}

const INIT_OPTIONS = {
  out: { type: 'string' },
  'authority-dir': { type: 'string' },
  namespace: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'jetstream-dir': { type: 'string' },
  'resolver-dir': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
} as const;

/** `bus-setup <command> ...`: an exit code. */
export async function runBusSetup(argv: readonly string[], env: NodeJS.ProcessEnv, output: CommandOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'init':
        await runInit(rest, output);
        return 0;
      case 'enrollment-token':
        await runEnrollmentToken(rest, env, output);
        return 0;
      case undefined:
      case 'help':
      case '--help':
        output.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new BusSetupError('usage', `unknown command ${command}`);
    }
  } catch (error) {
    return reportFailure(error, output);
  }
}

function reportFailure(error: unknown, output: CommandOutput): number {
  if (!(error instanceof BusSetupError)) {
    output.error(`bus-setup: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  switch (error.code) {
    case 'usage':
      output.error(`bus-setup: ${error.message}\n\n${USAGE}`);
      return 2;
    case 'unexpected_config':
    case 'gateway_unreachable':
    case 'gateway_refused':
      output.error(`bus-setup: ${error.message}`);
      return 1;
  }
}

/** `parseArgs`' own errors (unknown flag, missing value) are usage errors too. */
function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new BusSetupError('usage', (error as Error).message);
  }
}

async function runInit(args: readonly string[], output: CommandOutput): Promise<void> {
  const options = parseInitOptions(asUsage(() => parseArgs({ args: [...args], options: INIT_OPTIONS, strict: true }).values));
  const written = await writeDeploymentBus(options);
  for (const file of written) output.out(`${file.outcome.padEnd(8)} ${file.file}`);
  output.out(`keep ${written[0]!.file} private and backed up: whoever holds it can mint any NATS user of this deployment`);
  if (written.some((file) => file.outcome === 'updated')) output.out(updatedConfigNote(written));
}

function updatedConfigNote(written: readonly WrittenFile[]): string {
  const updated = written.filter((file) => file.outcome === 'updated').map((file) => path.basename(file.file));
  return `${updated.join(' and ')} changed: restart NATS with it, then the gateway, which pushes the daemons' revocations again at boot`;
}

async function runEnrollmentToken(args: readonly string[], env: NodeJS.ProcessEnv, output: CommandOutput): Promise<void> {
  const flags = asUsage(() => parseArgs({ args: [...args], options: { gateway: { type: 'string' } }, strict: true }).values);
  const apiToken = env['SWITCHYARD_API_TOKEN'];
  const problems = [...(flags.gateway ? [] : ['--gateway: is required']), ...(apiToken ? [] : ['SWITCHYARD_API_TOKEN: is not set (an API token of the workspace)'])];
  if (problems.length > 0 || !flags.gateway || !apiToken) throw new BusSetupError('usage', problems.join('\n'));
  output.out(await requestEnrollmentToken({ gatewayUrl: flags.gateway, apiToken }));
}
