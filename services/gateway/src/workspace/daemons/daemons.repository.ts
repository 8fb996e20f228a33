import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf, isoOrNull } from '../common/api-schemas';
import { returningRows } from '../database/returning-rows';
import type { DaemonView } from './daemon.schemas';

/** Enrollment tokens are `sye_` plus 32 random bytes; like API tokens only their SHA-256 is kept. */
const ENROLLMENT_TOKEN_PREFIX = 'sye_';

export function hashEnrollmentToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface DaemonRow {
  id: string;
  workspace_id: string;
  name: string;
  user_public_key: string;
  enrolled_at: Date;
  revoked_at: Date | null;
}

export interface DaemonEnrollment {
  readonly workspaceId: string;
  readonly revoked: boolean;
}

const DAEMON_COLUMNS = 'id, workspace_id, name, user_public_key, enrolled_at, revoked_at';

function viewOf(row: DaemonRow): DaemonView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    userPublicKey: row.user_public_key,
    enrolledAt: isoOf(row.enrolled_at),
    revokedAt: isoOrNull(row.revoked_at),
  };
}

/** Daemons and their enrollment tokens, scoped by workspace. */
@Injectable()
export class DaemonsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async createEnrollment(options: { readonly workspaceId: string; readonly ttlMs: number }): Promise<{ id: string; token: string; expiresAt: string }> {
    const token = `${ENROLLMENT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = uuidv7();
    const [row] = await this.dataSource.query<Array<{ expires_at: Date }>>(
      `insert into daemon_enrollment (id, workspace_id, token_hash, expires_at) values ($1, $2, $3, now() + $4 * interval '1 millisecond') returning expires_at`,
      [id, options.workspaceId, hashEnrollmentToken(token), options.ttlMs],
    );
    if (!row) throw new Error('insert into daemon_enrollment returned no row');
    return { id, token, expiresAt: isoOf(row.expires_at) };
  }

  /**
   * Uses the token once and records the daemon, in one transaction: two daemons racing with one
   * token cannot both enroll. Undefined when the token is unknown, expired or used.
   */
  async enroll(options: { readonly token: string; readonly daemonId: string; readonly name: string; readonly userPublicKey: string; readonly curvePublicKey: string }): Promise<DaemonView | undefined> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const [used] = await returningRows<{ workspace_id: string }>(
        manager,
        `update daemon_enrollment set used_at = now(), daemon_id = $2
          where token_hash = $1 and used_at is null and expires_at > now() returning workspace_id`,
        [hashEnrollmentToken(options.token), options.daemonId],
      );
      if (!used) return undefined;
      const [row] = await manager.query<DaemonRow[]>(
        `insert into enrolled_daemon (id, workspace_id, name, user_public_key, curve_public_key) values ($1, $2, $3, $4, $5) returning ${DAEMON_COLUMNS}`,
        [options.daemonId, used.workspace_id, options.name, options.userPublicKey, options.curvePublicKey],
      );
      if (!row) throw new Error('insert into daemon returned no row');
      return viewOf(row);
    });
  }

  async list(workspaceId: string): Promise<DaemonView[]> {
    const rows = await this.dataSource.query<DaemonRow[]>(`select ${DAEMON_COLUMNS} from enrolled_daemon where workspace_id = $1 order by enrolled_at, id`, [workspaceId]);
    return rows.map(viewOf);
  }

  /** Revokes idempotently (the first time stays); undefined when the workspace has no such daemon. */
  async revoke(workspaceId: string, daemonId: string): Promise<DaemonView | undefined> {
    const [row] = await returningRows<DaemonRow>(
      this.dataSource,
      `update enrolled_daemon set revoked_at = coalesce(revoked_at, now()) where id = $1 and workspace_id = $2 returning ${DAEMON_COLUMNS}`,
      [daemonId, workspaceId],
    );
    return row ? viewOf(row) : undefined;
  }

  /**
   * The workspace a daemon enrolled into, and whether it was revoked; undefined for a daemon with
   * no enrollment (one run with directly minted credentials).
   */
  async enrollmentOf(daemonId: string): Promise<DaemonEnrollment | undefined> {
    const [row] = await this.dataSource.query<Array<{ workspace_id: string; revoked_at: Date | null }>>('select workspace_id, revoked_at from enrolled_daemon where id = $1', [daemonId]);
    return row ? { workspaceId: row.workspace_id, revoked: row.revoked_at !== null } : undefined;
  }

  /** Every revoked daemon's user key with its revocation time (unix seconds), for the account JWT. */
  async revokedUserKeys(): Promise<Record<string, number>> {
    const rows = await this.dataSource.query<Array<{ user_public_key: string; revoked_at: Date }>>('select user_public_key, revoked_at from enrolled_daemon where revoked_at is not null');
    return Object.fromEntries(rows.map((row) => [row.user_public_key, Math.ceil(new Date(row.revoked_at).getTime() / 1000)]));
  }
}
