import { z } from 'zod';
import { databaseServiceConfigSchema } from '@switchyard/service-kit';

export const gatewayConfigSchema = databaseServiceConfigSchema(8080).extend({
  /**
   * Ensures, at boot, a workspace `default` and this API token in it: how a fresh install (and the
   * local stack) gets its first credential. Leave unset in production once tokens exist.
   */
  GATEWAY_BOOTSTRAP_TOKEN: z.string().regex(/^sy_[A-Za-z0-9_-]{20,200}$/, 'must look like an API token: sy_ followed by 20+ url-safe characters').optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
