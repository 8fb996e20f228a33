import path from 'node:path';
import { parseArgs } from 'node:util';
import { enrollDaemon } from './daemon-enrollment';
import { readDaemonIdentity } from './daemon-identity.store';

const USAGE = 'usage: npm run daemon -- enroll --gateway <url> --token <sye_...> [--name <shown name>]   (SWITCHYARD_HOME picks the home)';

/** `enroll`: makes the daemon's keys, enrolls them with the gateway, keeps the identity; an exit code. */
export async function runEnrollCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values: { gateway?: string; token?: string; name?: string };
  try {
    ({ values } = parseArgs({ args: [...args], options: { gateway: { type: 'string' }, token: { type: 'string' }, name: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const gatewayUrl = values.gateway ?? env['DAEMON_GATEWAY_URL'];
  const token = values.token ?? env['DAEMON_ENROLLMENT_TOKEN'];
  if (!gatewayUrl || !token) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const home = path.resolve(env['SWITCHYARD_HOME'] ?? '.switchyard');
  const existing = readDaemonIdentity(home);
  if (existing) {
    process.stderr.write(`this home already holds daemon ${existing.daemonId} (workspace ${existing.workspaceId}); use another SWITCHYARD_HOME to enroll another\n`);
    return 1;
  }
  try {
    const identity = await enrollDaemon({ gatewayUrl, token, home, ...(values.name ? { name: values.name } : {}) });
    process.stdout.write(`enrolled daemon ${identity.daemonId} in workspace ${identity.workspaceId}; credentials in ${path.dirname(identity.credentialsFile)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
}
