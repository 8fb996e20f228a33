import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Who this daemon is on the bus, as enrollment left it in its home. */
export interface DaemonIdentity {
  readonly daemonId: string;
  readonly workspaceId: string;
  /** The gateway it enrolled with: where its agents call back unless DAEMON_GATEWAY_URL says otherwise. */
  readonly gatewayUrl: string;
  /** The daemon's NATS `.creds` (its user JWT and its own seed), 0600. */
  readonly credentialsFile: string;
  /** The seed of the curve key task secrets are sealed to, 0600. */
  readonly curveSeedFile: string;
}

const identityFileSchema = z.object({ version: z.literal(1), daemonId: z.string().min(1), workspaceId: z.string().min(1), gatewayUrl: z.string().min(1), enrolledAt: z.string() });

/** `<home>/identity/`: a folder only the daemon's user may read. */
export function identityDirectory(home: string): string {
  return path.join(home, 'identity');
}

function filesOf(home: string) {
  const directory = identityDirectory(home);
  return { directory, identity: path.join(directory, 'identity.json'), credentials: path.join(directory, 'daemon.creds'), curveSeed: path.join(directory, 'curve.nk') };
}

export function readDaemonIdentity(home: string): DaemonIdentity | undefined {
  const files = filesOf(home);
  if (!existsSync(files.identity)) return undefined;
  const parsed = identityFileSchema.safeParse(JSON.parse(readFileSync(files.identity, 'utf8')));
  if (!parsed.success) throw new Error(`${files.identity} is not a daemon identity: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  for (const file of [files.credentials, files.curveSeed]) if (!existsSync(file)) throw new Error(`${file} is missing: enroll this daemon again`);
  return { daemonId: parsed.data.daemonId, workspaceId: parsed.data.workspaceId, gatewayUrl: parsed.data.gatewayUrl, credentialsFile: files.credentials, curveSeedFile: files.curveSeed };
}

export function writeDaemonIdentity(home: string, options: { readonly daemonId: string; readonly workspaceId: string; readonly gatewayUrl: string; readonly creds: string; readonly curveSeed: string }): DaemonIdentity {
  const files = filesOf(home);
  mkdirSync(files.directory, { recursive: true, mode: 0o700 });
  chmodSync(files.directory, 0o700);
  const write = (file: string, content: string): void => {
    writeFileSync(file, content, { mode: 0o600 });
    chmodSync(file, 0o600);
  };
  write(files.credentials, options.creds);
  write(files.curveSeed, `${options.curveSeed}\n`);
  // Last: an identity file names only credentials that are already on disk.
  write(files.identity, `${JSON.stringify({ version: 1, daemonId: options.daemonId, workspaceId: options.workspaceId, gatewayUrl: options.gatewayUrl, enrolledAt: new Date().toISOString() }, null, 2)}\n`);
  return { daemonId: options.daemonId, workspaceId: options.workspaceId, gatewayUrl: options.gatewayUrl, credentialsFile: files.credentials, curveSeedFile: files.curveSeed };
}
