import type { INestApplication } from '@nestjs/common';
import { createJsonLogger, startService } from '@switchyard/service-kit';
import { testCredentialsFile, testNatsUrl } from '@switchyard/testing';
import type { GatewayTestKit } from '../../gateway-test.spec-helper';
import { gatewayApp } from '../../gateway.app';
import { AutopilotScheduler } from './autopilot.scheduler';

/**
 * Another gateway replica on the kit's namespace and database, booted here so a test can reach its
 * scheduler and call `tick` with a fixed clock (its own timer is off).
 */
export async function startSchedulerReplica(kit: GatewayTestKit): Promise<{ scheduler: AutopilotScheduler; app: INestApplication }> {
  const config = gatewayApp.loadConfig({
    NATS_URL: testNatsUrl(),
    SWITCHYARD_NAMESPACE: kit.gateway.namespace,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: kit.gateway.databaseUrl,
    GATEWAY_QUEUE_TIMEOUT_MS: '1000',
    GATEWAY_AUTOPILOT_TICK_MS: '0',
    NATS_CREDENTIALS_FILE: await testCredentialsFile({ kind: 'service', name: 'gateway' }, kit.gateway.namespace),
  });
  const running = await startService({
    service: 'gateway',
    config,
    createModule: (validated, logger) => gatewayApp.createModule(validated, logger),
    logger: createJsonLogger({ service: 'gateway', level: 'warn' }),
  });
  return { scheduler: running.app.get(AutopilotScheduler), app: running.app };
}
