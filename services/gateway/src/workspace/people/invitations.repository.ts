import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf, isoOrNull } from '../common/api-schemas';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import type { Role } from '../common/access.matrix';
import type { InvitationView } from './people.schemas';
import { hashSecretToken, newSecretToken } from './secret-token';

interface InvitationRow {
  id: string;
  workspace_id: string;
  role: Role;
  email: string | null;
  created_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, workspace_id, role, email, created_by, created_at, expires_at, accepted_at, accepted_by, revoked_at';

const viewOf = (row: InvitationRow): InvitationView => ({
  id: row.id,
  role: row.role,
  email: row.email,
  createdBy: row.created_by,
  createdAt: isoOf(row.created_at),
  expiresAt: isoOf(row.expires_at),
  acceptedAt: isoOrNull(row.accepted_at),
  acceptedBy: row.accepted_by,
  revokedAt: isoOrNull(row.revoked_at),
});

/** An invitation that could still be accepted: its workspace, role and (optional) email. */
export interface OpenInvitation {
  readonly id: string;
  readonly workspaceId: string;
  readonly role: Role;
  readonly email: string | null;
}

/** One-time invitation links (`workspace_invitation`); the secret is kept as a hash only. */
@Injectable()
export class InvitationsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async create(
    options: { readonly workspaceId: string; readonly role: Role; readonly email: string | null; readonly createdBy: string; readonly expiresInHours: number },
    runner: RawQueryRunner = this.dataSource,
  ): Promise<{ readonly invitation: InvitationView; readonly token: string }> {
    const token = newSecretToken('syi_');
    const [row] = await runner.query<InvitationRow[]>(
      `insert into workspace_invitation (id, workspace_id, role, email, token_hash, created_by, expires_at)
       values ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7)) returning ${COLUMNS}`,
      [`invitation-${uuidv7()}`, options.workspaceId, options.role, options.email, hashSecretToken(token), options.createdBy, options.expiresInHours],
    );
    if (!row) throw new Error('insert into workspace_invitation returned no row');
    return { invitation: viewOf(row), token };
  }

  async list(workspaceId: string): Promise<InvitationView[]> {
    const rows = await this.dataSource.query<InvitationRow[]>(`select ${COLUMNS} from workspace_invitation where workspace_id = $1 order by created_at desc, id desc`, [workspaceId]);
    return rows.map(viewOf);
  }

  /** Revokes an invitation not yet accepted; false when the workspace has no such open one. */
  async revoke(workspaceId: string, invitationId: string, runner: RawQueryRunner = this.dataSource): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      runner,
      'update workspace_invitation set revoked_at = coalesce(revoked_at, now()) where id = $1 and workspace_id = $2 and accepted_at is null returning id',
      [invitationId, workspaceId],
    );
    return rows.length > 0;
  }

  /** Takes the invitation for `userId` if it is still open (once: a second taker finds nothing). */
  async take(token: string, userId: string, runner: RawQueryRunner): Promise<OpenInvitation | undefined> {
    const rows = await returningRows<InvitationRow>(
      runner,
      `update workspace_invitation set accepted_at = now(), accepted_by = $2
        where token_hash = $1 and accepted_at is null and revoked_at is null and expires_at > now() returning ${COLUMNS}`,
      [hashSecretToken(token), userId],
    );
    const row = rows[0];
    return row ? { id: row.id, workspaceId: row.workspace_id, role: row.role, email: row.email } : undefined;
  }

  /** The open invitation of this secret, unchanged (to check its email before an account is made). */
  async peek(token: string, runner: RawQueryRunner = this.dataSource): Promise<OpenInvitation | undefined> {
    const [row] = await runner.query<InvitationRow[]>(
      `select ${COLUMNS} from workspace_invitation where token_hash = $1 and accepted_at is null and revoked_at is null and expires_at > now()`,
      [hashSecretToken(token)],
    );
    return row ? { id: row.id, workspaceId: row.workspace_id, role: row.role, email: row.email } : undefined;
  }
}
