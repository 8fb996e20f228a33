import { Inject, Injectable, Module } from '@nestjs/common';
import { MESSAGING_CONNECTION, publishNotice, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { workspaceNoticeSubject, type WorkspaceNotice } from './workspace-notice';

/**
 * Tells the workspace's live clients that something committed (`notify.workspace.<id>`, core
 * NATS). Best effort, after the commit: a lost notice costs a client a refresh, never a request.
 */
@Injectable()
export class WorkspaceNoticesPublisher {
  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  publish(workspaceId: string, notice: Omit<WorkspaceNotice, 'at'>): void {
    const data: WorkspaceNotice = { ...notice, at: new Date().toISOString() };
    try {
      publishNotice(this.connection, workspaceNoticeSubject(workspaceId), data);
    } catch (error) {
      this.logger.warn({ err: error, workspaceId, kind: notice.kind, id: notice.id }, 'workspace notice not published');
    }
  }
}

/** Imported by the modules that commit issues, comments and chat messages. */
@Module({ providers: [WorkspaceNoticesPublisher], exports: [WorkspaceNoticesPublisher] })
export class WorkspaceNoticesModule {}
