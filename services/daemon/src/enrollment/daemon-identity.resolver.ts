import path from 'node:path';
import { enrollDaemon } from './daemon-enrollment';
import { readDaemonIdentity } from './daemon-identity.store';

/**
 * The environment a daemon boots with, its identity filled in: an enrolled daemon reads it from
 * its home; one given `DAEMON_ENROLLMENT_TOKEN` and `DAEMON_GATEWAY_URL` enrolls first (once: the
 * identity is kept). A daemon given `DAEMON_ID` and `NATS_CREDENTIALS_FILE` directly (tests, an
 * operator's own credentials) uses them as they are.
 */
export async function resolveDaemonEnvironment(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  if (env['NATS_CREDENTIALS_FILE'] && env['DAEMON_ID']) return env;
  const home = path.resolve(env['SWITCHYARD_HOME'] ?? '.switchyard');
  let identity = readDaemonIdentity(home);
  if (!identity && env['DAEMON_ENROLLMENT_TOKEN'] && env['DAEMON_GATEWAY_URL']) {
    identity = await enrollDaemon({ gatewayUrl: env['DAEMON_GATEWAY_URL'], token: env['DAEMON_ENROLLMENT_TOKEN'], home, ...(env['DAEMON_NAME'] ? { name: env['DAEMON_NAME'] } : {}) });
  }
  if (!identity) return env;
  return {
    ...env,
    DAEMON_ID: identity.daemonId,
    DAEMON_WORKSPACE_ID: identity.workspaceId,
    NATS_CREDENTIALS_FILE: identity.credentialsFile,
    DAEMON_CURVE_SEED_FILE: identity.curveSeedFile,
    // Agents call back where the daemon enrolled, unless told otherwise.
    DAEMON_GATEWAY_URL: env['DAEMON_GATEWAY_URL'] ?? identity.gatewayUrl,
  };
}
