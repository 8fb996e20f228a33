import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type Actor } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf } from '../common/api-schemas';
import type { RawQueryRunner } from '../database/returning-rows';
import type { AuditAction } from './audit.actions';
import type { AuditEventView, AuditQuery } from './audit.schemas';

export interface AuditEntry {
  readonly workspaceId: string | null;
  readonly actor: Actor;
  readonly action: AuditAction;
  readonly target: { readonly kind: string; readonly id: string };
  /** Names and roles, never a secret value or a token. */
  readonly details?: Readonly<Record<string, unknown>>;
}

interface AuditRow {
  id: string;
  occurred_at: Date;
  actor_kind: string;
  actor_id: string;
  action: AuditAction;
  target_kind: string;
  target_id: string;
  details: Record<string, unknown>;
}

/**
 * The audit trail (`audit_event`): written in the same transaction as the change it records, so a
 * change is never without its entry nor an entry without its change; read by admins, newest first.
 */
@Injectable()
export class AuditTrail {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Records the entry through `runner` (the change's transaction), or on its own. */
  async record(entry: AuditEntry, runner: RawQueryRunner = this.dataSource): Promise<void> {
    await runner.query(
      `insert into audit_event (id, workspace_id, actor_kind, actor_id, action, target_kind, target_id, details)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
      [uuidv7(), entry.workspaceId, entry.actor.kind, entry.actor.id, entry.action, entry.target.kind, entry.target.id, JSON.stringify(entry.details ?? {})],
    );
  }

  /** The workspace's entries, newest first, before the cursor (an entry id: ids are time-ordered). */
  async list(workspaceId: string, query: AuditQuery): Promise<{ events: AuditEventView[]; nextCursor: string | null }> {
    const rows = await this.dataSource.query<AuditRow[]>(
      `select id, occurred_at, actor_kind, actor_id, action, target_kind, target_id, details from audit_event
        where workspace_id = $1 and ($2::text is null or action = $2) and ($3::text is null or id < $3)
        order by id desc limit $4`,
      [workspaceId, query.action ?? null, query.cursor ?? null, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    return {
      events: page.map((row) => ({
        id: row.id,
        occurredAt: isoOf(row.occurred_at),
        actor: { kind: row.actor_kind, id: row.actor_id },
        action: row.action,
        target: { kind: row.target_kind, id: row.target_id },
        details: row.details,
      })),
      nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
  }
}
