import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import path from 'node:path';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from '../daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from '../daemon.injection-keys';
import { detectRuntimes, type DetectedRuntime, type DetectionReport } from './runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES, type RuntimeIdentity } from './runtime-identities';
import { identityOfProfile, loadRuntimeProfiles } from './runtime-profiles.loader';
import { RuntimePresencePublisher } from './runtime-presence.publisher';
import { HeartbeatClock } from './heartbeat.clock';
import { watchBusReconnects } from './bus-reconnects.watch';
import { writeDetectionReport } from './detection-report.writer';
import { SlotTracker } from './slot-tracker';
import { mergeRuntimeProfiles } from './runtime-profiles.merge';
import { WorkspaceProfilesWatcher } from './workspace-profiles.watcher';

/** How many version probes and model listings run at once: each starts a CLI, often a heavy one. */
const PROBE_CONCURRENCY = 2;

/**
 * The runtimes this daemon offers: detected at boot and again periodically (or on SIGHUP),
 * registered when they appear or change version, heartbeated, and announced offline when they
 * vanish or the daemon stops. Heartbeats keep their own clock: a detection that hangs on a CLI
 * never delays them, since a late heartbeat fails the daemon's live runs as `runtime_offline`.
 */
@Injectable()
export class RuntimeRegistry implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runtimes = new Map<string, DetectedRuntime>();
  private lastIdentities: readonly RuntimeIdentity[] = BUILT_IN_RUNTIME_IDENTITIES;
  private readonly publisher: RuntimePresencePublisher;
  private readonly heartbeats: HeartbeatClock;
  private readonly workspaceProfiles: WorkspaceProfilesWatcher;
  private redetectTimer: NodeJS.Timeout | undefined;
  private detection: Promise<void> | undefined;
  private detectionAgain = false;
  private stopping = false;
  private readonly shutdown = new AbortController();
  private readonly onHangup = () => this.redetectNow('sighup');
  private detectedOnce!: () => void;
  private readonly detected = new Promise<void>((resolve) => (this.detectedOnce = resolve));

  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DAEMON_CONFIG) private readonly config: DaemonConfig,
    @Inject(DAEMON_LOGGER) private readonly logger: JsonLogger,
    private readonly slots: SlotTracker,
  ) {
    this.publisher = new RuntimePresencePublisher(connection, config.DAEMON_ID, config.DAEMON_WORKSPACE_ID);
    this.heartbeats = new HeartbeatClock({ intervalMs: config.DAEMON_HEARTBEAT_INTERVAL_MS, beat: () => this.heartbeat(), logger });
    // A change from the gateway applies at once, through the same re-detection an edit of the file gets.
    this.workspaceProfiles = new WorkspaceProfilesWatcher({
      connection,
      workspaceId: config.DAEMON_WORKSPACE_ID,
      logger,
      onChange: () => this.redetectNow('workspace runtime profiles changed'),
    });
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
    this.heartbeats.start();
    // Back from a disconnect: the queue hears at once that this daemon's runtimes are alive.
    watchBusReconnects({ connection: this.connection, logger: this.logger, onReconnect: () => this.heartbeats.beatNow() });
    this.scheduleRedetect();
    process.on('SIGHUP', this.onHangup);
    // After the first detection, so its current value comes as a change like any later one.
    await this.workspaceProfiles.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    process.off('SIGHUP', this.onHangup);
    this.workspaceProfiles.stop();
    clearTimeout(this.redetectTimer);
    // A probe still running is killed, not waited for.
    this.shutdown.abort();
    await this.heartbeats.stop();
    await this.detection?.catch(() => undefined);
    await Promise.all(this.current().map((runtime) => this.publisher.offline(runtime, 'daemon_shutdown').catch(() => undefined)));
  }

  /**
   * Runs a detection now, in the background (an operator installed a CLI, or a test forces one).
   * Detections never overlap: one asked for while another runs follows it.
   */
  redetectNow(cause: string): void {
    if (this.stopping) return;
    if (this.detection) {
      this.detectionAgain = true;
      return;
    }
    clearTimeout(this.redetectTimer);
    this.logger.info({ event: 'runtime_redetect', cause }, `re-detecting runtimes (${cause})`);
    this.detection = this.redetect()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'runtime detection failed'))
      .finally(() => {
        this.detection = undefined;
        if (this.detectionAgain) {
          this.detectionAgain = false;
          this.redetectNow('requested during the last detection');
        } else {
          this.scheduleRedetect();
        }
      });
  }

  private scheduleRedetect(): void {
    if (this.stopping) return;
    this.redetectTimer = setTimeout(() => this.redetectNow('interval'), this.config.DAEMON_REDETECT_INTERVAL_MS);
  }

  private async redetect(): Promise<void> {
    const searchPath = this.config.DAEMON_PATH ?? process.env['PATH'] ?? '';
    const report = await detectRuntimes({
      daemonId: this.config.DAEMON_ID,
      identities: await this.identities().catch((error: unknown) => {
        // Edited into something broken while running: keep the profiles last read.
        this.logger.error({ err: error }, 'runtime profiles not reloaded');
        return this.lastIdentities;
      }),
      searchPath,
      home: path.resolve(this.config.SWITCHYARD_HOME, 'probe-home'),
      cacheRoot: path.resolve(this.config.SWITCHYARD_HOME, 'cache'),
      probeTimeoutMs: this.config.DAEMON_VERSION_PROBE_TIMEOUT_MS,
      concurrency: PROBE_CONCURRENCY,
      signal: this.shutdown.signal,
    });
    if (this.shutdown.signal.aborted) return;
    await this.apply(report);
    await writeDetectionReport({ home: this.config.SWITCHYARD_HOME, searchPath, runtimes: this.current(), notDetected: report.missing }).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'detection report not written'),
    );
    this.logger.info(
      { event: 'runtime_detection', registered: this.current().map((runtime) => runtime.runtimeId), notDetected: report.missing.map((missing) => `${missing.identity} (${missing.reason})`) },
      `runtimes: ${this.runtimes.size} offered, ${report.missing.length} known CLIs not usable`,
    );
  }

  /** Registers what appeared or changed, then swaps the set heartbeats read, then says what vanished. */
  private async apply(report: DetectionReport): Promise<void> {
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
    const vanished = [...this.runtimes.values()].filter((runtime) => !next.has(runtime.runtimeId));
    this.runtimes = next;
    // A heartbeat sent before the swap must not land after the goodbye and revive the runtime.
    if (vanished.length > 0) await this.heartbeats.settled();
    for (const runtime of vanished) await this.publisher.offline(runtime, 'not_detected');
    for (const missing of report.missing) {
      if (missing.reason !== 'not_on_path') this.logger.warn({ event: 'runtime_not_detected', ...missing }, `${missing.identity} not usable: ${missing.detail}`);
    }
    for (const note of report.modelDiscovery) {
      const fields = { event: 'runtime_model_discovery', ...note };
      if (note.outcome === 'failed' || note.outcome === 'timed_out') this.logger.warn(fields, `models of ${note.runtimeId} not discovered: ${note.detail}`);
      else this.logger.debug(fields, `models of ${note.runtimeId}: ${note.detail}`);
    }
  }

  /**
   * Built-ins, the workspace's profiles from the gateway and the profiles file (re-read on every
   * detection so edits take effect; a local profile overrides a workspace one of the same name).
   */
  private async identities(): Promise<readonly RuntimeIdentity[]> {
    const file = this.config.DAEMON_RUNTIME_PROFILES_FILE;
    const local = file ? await loadRuntimeProfiles(file) : [];
    const profiles = mergeRuntimeProfiles({ local, workspace: this.workspaceProfiles.current() });
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
