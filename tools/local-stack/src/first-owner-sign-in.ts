import path from 'node:path';
import { execa } from 'execa';

/**
 * The first owner's one-time sign-in link (the bootstrap token's account has no password): the
 * gateway's admin command, run against the stack's database, as an operator would run it.
 * Undefined, with the reason, when it could not be made; the stack runs on without it.
 */
export async function firstOwnerSignInLink(options: {
  readonly distDirectory: string;
  readonly databaseUrl: string;
  readonly gatewayUrl: string;
  readonly email: string;
}): Promise<{ readonly link: string } | { readonly failed: string }> {
  const result = await execa(process.execPath, [path.join(options.distDirectory, 'services/gateway/src/admin.main.js'), 'sign-in-link', '--email', options.email], {
    env: { DATABASE_URL: options.databaseUrl, GATEWAY_PUBLIC_URL: options.gatewayUrl, PATH: process.env['PATH'] ?? '' },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  const link = result.stdout.split('\n').find((line) => line.startsWith(`${options.gatewayUrl}/auth/link/`));
  return link ? { link } : { failed: (result.stderr || result.stdout || `exit ${String(result.exitCode)}`).trim() };
}
