import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf } from '../common/api-schemas';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { isRole, type Role } from '../common/access.matrix';
import type { MemberView, MembershipView } from './people.schemas';

interface MemberRow {
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: Date;
}

const viewOf = (row: MemberRow): MemberView => ({ userId: row.user_id, email: row.email, displayName: row.display_name, role: row.role, memberSince: isoOf(row.created_at) });

/** Who belongs to which workspace, with which role (`workspace_member`). */
@Injectable()
export class MembersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** The user's role in the workspace, or undefined when not a member (or the account is disabled). */
  async roleOf(workspaceId: string, userId: string): Promise<Role | undefined> {
    const [row] = await this.dataSource.query<Array<{ role: string }>>(
      `select m.role from workspace_member m join app_user u on u.id = m.user_id where m.workspace_id = $1 and m.user_id = $2 and u.disabled_at is null`,
      [workspaceId, userId],
    );
    return row && isRole(row.role) ? row.role : undefined;
  }

  /** Every workspace the user belongs to, oldest membership first. */
  async membershipsOf(userId: string): Promise<MembershipView[]> {
    const rows = await this.dataSource.query<Array<{ workspace_id: string; name: string; role: Role }>>(
      `select m.workspace_id, w.name, m.role from workspace_member m join workspace w on w.id = m.workspace_id where m.user_id = $1 order by m.created_at, m.workspace_id`,
      [userId],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, workspaceName: row.name, role: row.role }));
  }

  async list(workspaceId: string): Promise<MemberView[]> {
    const rows = await this.dataSource.query<MemberRow[]>(
      `select m.user_id, u.email, u.display_name, m.role, m.created_at from workspace_member m join app_user u on u.id = m.user_id
        where m.workspace_id = $1 order by m.created_at, m.user_id`,
      [workspaceId],
    );
    return rows.map(viewOf);
  }

  /** Adds the member, or leaves an existing membership as it is; true when added. */
  async add(options: { readonly workspaceId: string; readonly userId: string; readonly role: Role }, runner: RawQueryRunner = this.dataSource): Promise<boolean> {
    const rows = await runner.query<Array<{ user_id: string }>>(
      `insert into workspace_member (workspace_id, user_id, role) values ($1, $2, $3) on conflict do nothing returning user_id`,
      [options.workspaceId, options.userId, options.role],
    );
    return rows.length > 0;
  }

  async setRole(options: { readonly workspaceId: string; readonly userId: string; readonly role: Role }, runner: RawQueryRunner): Promise<void> {
    await runner.query('update workspace_member set role = $3, updated_at = now() where workspace_id = $1 and user_id = $2', [options.workspaceId, options.userId, options.role]);
  }

  async remove(options: { readonly workspaceId: string; readonly userId: string }, runner: RawQueryRunner): Promise<boolean> {
    const rows = await returningRows<{ user_id: string }>(runner, 'delete from workspace_member where workspace_id = $1 and user_id = $2 returning user_id', [options.workspaceId, options.userId]);
    return rows.length > 0;
  }

  /** The member's role, its row locked until the transaction ends, with the workspace's owner count. */
  async lockForChange(options: { readonly workspaceId: string; readonly userId: string }, runner: RawQueryRunner): Promise<{ role: Role; owners: number } | undefined> {
    const owners = await runner.query<Array<{ user_id: string; role: Role }>>(
      `select user_id, role from workspace_member where workspace_id = $1 and (role = 'owner' or user_id = $2) for update`,
      [options.workspaceId, options.userId],
    );
    const target = owners.find((row) => row.user_id === options.userId);
    return target ? { role: target.role, owners: owners.filter((row) => row.role === 'owner').length } : undefined;
  }

  /** How many workspaces the user owns. */
  async ownedCount(userId: string): Promise<number> {
    const [row] = await this.dataSource.query<Array<{ count: number }>>(`select count(*)::int as count from workspace_member where user_id = $1 and role = 'owner'`, [userId]);
    return row?.count ?? 0;
  }
}
