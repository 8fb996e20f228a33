import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import path from 'node:path';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from '../daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from '../daemon.tokens';
import { detectRuntimes, type DetectedRuntime } from './runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES, type RuntimeIdentity } from './runtime-identities';
import { identityOfProfile, loadRuntimeProfiles } from './runtime-profiles.loader';
import { RuntimePresencePublisher } from './runtime-presence.publisher';
import { SlotTracker } from '../run-loop/slot-tracker';

/**
 * The runtimes this daemon offers: detected at boot and again periodically, registered when they
 * appear or change version, heartbeated, and announced offline when they vanish or the daemon stops.
 */
@Injectable()
export class RuntimeRegistry implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runtimes = new Map<string, DetectedRuntime>();
  private lastIdentities: readonly RuntimeIdentity[] = BUILT_IN_RUNTIME_IDENTITIES;
  private readonly publisher: RuntimePresencePublisher;
  private readonly timers: NodeJS.Timeout[] = [];
  private work: Promise<void> = Promise.resolve();
  private detectedOnce!: () => void;
  private readonly detected = new Promise<void>((resolve) => (this.detectedOnce = resolve));

  constructor(
    @Inject(MESSAGING_CONNECTION) connection: MessagingConnection,
    @Inject(DAEMON_CONFIG) private readonly config: DaemonConfig,
    @Inject(DAEMON_LOGGER) private readonly logger: JsonLogger,
    private readonly slots: SlotTracker,
  ) {
    this.publisher = new RuntimePresencePublisher(connection, config.DAEMON_ID, config.DAEMON_WORKSPACE_ID);
  }

  current(): DetectedRuntime[] {
    return [...this.runtimes.values()];
  }

  /** Resolves after the first detection (bootstrap hooks of providers run concurrently). */
  whenDetected(): Promise<void> {
    return this.detected;
  }

  async onApplicationBootstrap(): Promise<void> {
    // A broken profiles file stops the boot: the operator asked for runtimes we cannot offer.
    await this.identities();
    await this.redetect();
    this.detectedOnce();
    await this.heartbeat();
    this.timers.push(setInterval(() => this.serially(() => this.heartbeat()), this.config.DAEMON_HEARTBEAT_INTERVAL_MS));
    this.timers.push(setInterval(() => this.serially(() => this.redetect()), this.config.DAEMON_REDETECT_INTERVAL_MS));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.timers.forEach((timer) => clearInterval(timer));
    await this.work;
    await Promise.all(this.current().map((runtime) => this.publisher.offline(runtime, 'daemon_shutdown').catch(() => undefined)));
  }

  /** Heartbeats and detection never overlap; a failure is logged and the next tick tries again. */
  private serially(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((error: unknown) => this.logger.warn({ err: error }, 'runtime presence step failed'));
  }

  private async redetect(): Promise<void> {
    const report = await detectRuntimes({
      daemonId: this.config.DAEMON_ID,
      identities: await this.identities().catch((error: unknown) => {
        // Edited into something broken while running: keep the profiles last read.
        this.logger.error({ err: error }, 'runtime profiles not reloaded');
        return this.lastIdentities;
      }),
      searchPath: this.config.DAEMON_PATH ?? process.env['PATH'] ?? '',
      home: path.resolve(this.config.SWITCHYARD_HOME, 'probe-home'),
      probeTimeoutMs: this.config.DAEMON_VERSION_PROBE_TIMEOUT_MS,
    });
    const unanswered = new Set(report.modelDiscovery.filter((note) => note.outcome === 'failed' || note.outcome === 'timed_out').map((note) => note.runtimeId));
    const next = new Map<string, DetectedRuntime>();
    for (const detected of report.detected) {
      const before = this.runtimes.get(detected.runtimeId);
      const unchanged = before?.version === detected.version && before.executablePath === detected.executablePath;
      // A CLI that once listed its models and now fails to answer keeps its list: one slow answer
      // must not flip the runtime's models to none and back.
      const runtime = unchanged && unanswered.has(detected.runtimeId) ? { ...detected, models: before.models } : detected;
      next.set(runtime.runtimeId, runtime);
      if (unchanged && sameModels(before.models, runtime.models)) continue;
      await this.publisher.registered(runtime, this.config.DAEMON_MAX_SLOTS);
      this.logger.info(
        { event: 'runtime_registered', runtimeId: runtime.runtimeId, version: runtime.version, path: runtime.executablePath, models: runtime.models.length },
        `runtime ${runtime.runtimeId} registered`,
      );
    }
    for (const [runtimeId, runtime] of this.runtimes) {
      if (!next.has(runtimeId)) await this.publisher.offline(runtime, 'not_detected');
    }
    for (const missing of report.missing) {
      if (missing.reason !== 'not_on_path') this.logger.warn({ event: 'runtime_not_detected', ...missing }, `${missing.identity} not usable: ${missing.detail}`);
    }
    for (const note of report.modelDiscovery) {
      const fields = { event: 'runtime_model_discovery', ...note };
      if (note.outcome === 'failed' || note.outcome === 'timed_out') this.logger.warn(fields, `models of ${note.runtimeId} not discovered: ${note.detail}`);
      else this.logger.debug(fields, `models of ${note.runtimeId}: ${note.detail}`);
    }
    this.runtimes = next;
  }

  /** Built-ins plus the profiles file, re-read on every detection so edits take effect. */
  private async identities(): Promise<readonly RuntimeIdentity[]> {
    const file = this.config.DAEMON_RUNTIME_PROFILES_FILE;
    const profiles = file ? await loadRuntimeProfiles(file) : [];
    this.lastIdentities = [...BUILT_IN_RUNTIME_IDENTITIES, ...profiles.map(identityOfProfile)];
    return this.lastIdentities;
  }

  private async heartbeat(): Promise<void> {
    const state = { activeTaskIds: this.slots.activeTaskIds(), freeSlots: this.slots.freeSlots };
    await Promise.all(this.current().map((runtime) => this.publisher.heartbeat(runtime, state)));
  }
}

function sameModels(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((model, index) => model === right[index]);
}
