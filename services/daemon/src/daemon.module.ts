import { Module, type DynamicModule } from '@nestjs/common';
import { prepareStateDirectory, type JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from './daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from './daemon.injection-keys';
import { ClaimLoop } from './run-loop/claim-loop';
import { OrphanRelease } from './run-loop/orphan-release';
import { SlotTracker } from './runtimes/slot-tracker';
import { RuntimeRegistry } from './runtimes/runtime-registry';
import { DaemonMetrics } from './daemon.metrics';

/**
 * The daemon: runtimes detected and heartbeated, the attempts of a previous process released at
 * boot, then work claimed on nudges and run through the adapters.
 */
@Module({})
export class DaemonModule {
  static forRoot(config: DaemonConfig, logger: JsonLogger): DynamicModule {
    // Before anything writes there: the home holds keys, outbox files and work directories.
    prepareStateDirectory(config.SWITCHYARD_HOME);
    return {
      module: DaemonModule,
      providers: [
        { provide: DAEMON_CONFIG, useValue: config },
        { provide: DAEMON_LOGGER, useValue: logger },
        { provide: SlotTracker, useValue: new SlotTracker(config.DAEMON_MAX_SLOTS) },
        RuntimeRegistry,
        OrphanRelease,
        ClaimLoop,
        DaemonMetrics,
      ],
      exports: [RuntimeRegistry],
    };
  }
}
