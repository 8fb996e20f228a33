import { createEvent, subjects, type EventType, type PayloadOf } from '@switchyard/contracts';
import { publish, type MessagingConnection } from '@switchyard/messaging';
import type { DetectedRuntime } from './runtime-detector';

/**
 * Tells the control plane which runtimes this daemon offers, and that it is alive, on
 * `runtime.<type>.<runtimeId>.<daemonId>`: consumers take the daemon from the subject.
 */
export class RuntimePresencePublisher {
  constructor(
    private readonly connection: MessagingConnection,
    private readonly daemonId: string,
    private readonly workspaceId: string,
  ) {}

  async registered(runtime: DetectedRuntime, capacity: number): Promise<void> {
    await this.send('runtime.registered', {
      daemonId: this.daemonId,
      workspaceId: this.workspaceId,
      runtimeId: runtime.runtimeId,
      identity: runtime.identity.identity,
      provider: runtime.identity.provider,
      version: runtime.version,
      protocolFamily: runtime.identity.protocolFamily,
      commandName: runtime.identity.commandName,
      profileId: runtime.identity.profile?.profileId ?? null,
      capacity,
      models: [...runtime.models],
    });
  }

  async heartbeat(runtime: DetectedRuntime, state: { readonly activeTaskIds: string[]; readonly freeSlots: number }): Promise<void> {
    await this.send('runtime.heartbeat', { daemonId: this.daemonId, runtimeId: runtime.runtimeId, ...state });
  }

  async offline(runtime: DetectedRuntime, reason: 'daemon_shutdown' | 'not_detected'): Promise<void> {
    await this.send('runtime.offline', { daemonId: this.daemonId, runtimeId: runtime.runtimeId, reason, lastHeartbeatAt: new Date().toISOString() });
  }

  private async send<TType extends EventType>(type: TType, payload: PayloadOf<TType>): Promise<void> {
    const envelope = createEvent({ type, payload });
    await publish(this.connection, { subject: subjects.forEvent(envelope, this.daemonId), data: envelope, messageId: envelope.eventId });
  }
}
