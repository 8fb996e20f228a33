import path from 'node:path';
import { z } from 'zod';
import { namespaceField } from '@switchyard/service-kit';
import { BusSetupError } from './bus-setup.error';
import type { DeploymentBusOptions } from './deployment-bus.writer';

/** The flags of `init`, as `parseArgs` gives them. */
export interface InitFlags {
  readonly out?: string | undefined;
  readonly 'authority-dir'?: string | undefined;
  readonly namespace?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly 'jetstream-dir'?: string | undefined;
  readonly 'resolver-dir'?: string | undefined;
  readonly 'tls-cert'?: string | undefined;
  readonly 'tls-key'?: string | undefined;
}

// Paths the server reads in its own machine or container: a relative one would depend on the
// directory nats-server happens to start in.
const serverPath = () => z.string().trim().min(1).refine((value) => path.isAbsolute(value), 'must be an absolute path (as NATS sees it)');

const initFlagsSchema = z.object({
  out: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  'authority-dir': z.string().trim().min(1).optional(),
  namespace: namespaceField,
  host: z.string().trim().min(1).default('0.0.0.0'),
  // -1: a free port of the server's choosing (tests).
  port: z.coerce.number().int('must be an integer').min(-1, 'must be 1-65535 or -1').max(65535, 'must be 1-65535 or -1').refine((port) => port !== 0, 'must be 1-65535 or -1').default(4222),
  'jetstream-dir': serverPath().default('/data/jetstream'),
  'resolver-dir': serverPath().default('/data/resolver'),
  'tls-cert': serverPath().optional(),
  'tls-key': serverPath().optional(),
});

/** The writer's options from `init`'s flags; every bad flag is named at once. */
export function parseInitOptions(flags: InitFlags): DeploymentBusOptions {
  const parsed = initFlagsSchema.safeParse(flags);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
  if ((flags['tls-cert'] === undefined) !== (flags['tls-key'] === undefined)) problems.push('--tls-key: --tls-cert and --tls-key go together');
  if (!parsed.success || problems.length > 0) throw new BusSetupError('usage', problems.join('\n'));
  const values = parsed.data;
  const outDirectory = path.resolve(values.out);
  const authorityDirectory = path.resolve(values['authority-dir'] ?? path.join(values.out, 'authority'));
  // The authority can mint any user: it must never sit among the files a deployment mounts.
  if (authorityDirectory === outDirectory) throw new BusSetupError('usage', '--authority-dir: must not be the --out directory');
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  return {
    outDirectory,
    authorityDirectory,
    namespace: values.namespace,
    server: {
      host: values.host,
      port: values.port,
      jetStreamDirectory: values['jetstream-dir'],
      resolverDirectory: values['resolver-dir'],
      ...(certFile && keyFile ? { tls: { certFile, keyFile } } : {}),
    },
  };
}
