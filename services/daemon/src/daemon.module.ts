import { Module, type DynamicModule } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from './daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from './daemon.tokens';
import { RuntimeRegistry } from './runtimes/runtime-registry';

/** The daemon: runtimes detected on this machine, registered and heartbeated over NATS. */
@Module({})
export class DaemonModule {
  static forRoot(config: DaemonConfig, logger: JsonLogger): DynamicModule {
    return {
      module: DaemonModule,
      providers: [{ provide: DAEMON_CONFIG, useValue: config }, { provide: DAEMON_LOGGER, useValue: logger }, RuntimeRegistry],
      exports: [RuntimeRegistry],
    };
  }
}
