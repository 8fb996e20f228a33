import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type ProtocolFamily } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { setClause } from '../database/update-set';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import type { CreateRuntimeProfileInput, RuntimeProfileView, UpdateRuntimeProfileInput } from './runtime-profile.schemas';

interface RuntimeProfileRow {
  id: string;
  display_name: string;
  protocol_family: ProtocolFamily;
  command_name: string;
  fixed_args: string[];
  description: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, display_name, protocol_family, command_name, fixed_args, description, enabled, created_at, updated_at';

function viewOf(row: RuntimeProfileRow): RuntimeProfileView {
  return {
    id: row.id,
    displayName: row.display_name,
    protocolFamily: row.protocol_family,
    commandName: row.command_name,
    fixedArgs: row.fixed_args,
    description: row.description,
    enabled: row.enabled,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

function nameTaken(error: unknown, displayName: string | undefined): unknown {
  return isUniqueViolation(error) ? new ApiError('runtime_profile_name_taken', `a runtime profile named ${JSON.stringify(displayName)} exists`) : error;
}

/** Runtime profiles of one workspace; every query is scoped by the caller's workspace id. */
@Injectable()
export class RuntimeProfilesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string): Promise<RuntimeProfileView[]> {
    const rows = await this.dataSource.query<RuntimeProfileRow[]>(
      `select ${COLUMNS} from runtime_profile where workspace_id = $1 order by display_name, id`,
      [workspaceId],
    );
    return rows.map(viewOf);
  }

  /** Every workspace that has a profile, for the distributor's put at boot. */
  async workspacesWithProfiles(): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ workspace_id: string }>>('select distinct workspace_id from runtime_profile order by workspace_id');
    return rows.map((row) => row.workspace_id);
  }

  async find(workspaceId: string, id: string): Promise<RuntimeProfileView | undefined> {
    const [row] = await this.dataSource.query<RuntimeProfileRow[]>(`select ${COLUMNS} from runtime_profile where workspace_id = $1 and id = $2`, [
      workspaceId,
      id,
    ]);
    return row ? viewOf(row) : undefined;
  }

  async create(workspaceId: string, input: CreateRuntimeProfileInput): Promise<RuntimeProfileView> {
    try {
      const [row] = await this.dataSource.query<RuntimeProfileRow[]>(
        `insert into runtime_profile (id, workspace_id, display_name, protocol_family, command_name, fixed_args, description, enabled)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8) returning ${COLUMNS}`,
        [
          uuidv7(),
          workspaceId,
          input.displayName,
          input.protocolFamily,
          input.commandName,
          JSON.stringify(input.fixedArgs ?? []),
          input.description ?? null,
          input.enabled ?? true,
        ],
      );
      if (!row) throw new Error('insert into runtime_profile returned no row');
      return viewOf(row);
    } catch (error) {
      throw nameTaken(error, input.displayName);
    }
  }

  async update(workspaceId: string, id: string, input: UpdateRuntimeProfileInput): Promise<RuntimeProfileView | undefined> {
    const set = setClause(
      [
        { column: 'display_name', value: input.displayName },
        { column: 'protocol_family', value: input.protocolFamily },
        { column: 'command_name', value: input.commandName },
        { column: 'fixed_args', value: input.fixedArgs, json: true },
        { column: 'description', value: input.description },
        { column: 'enabled', value: input.enabled },
      ],
      3,
    );
    try {
      const [row] = await returningRows<RuntimeProfileRow>(
        this.dataSource,
        `update runtime_profile set ${set.sql} where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
        [workspaceId, id, ...set.parameters],
      );
      return row ? viewOf(row) : undefined;
    } catch (error) {
      throw nameTaken(error, input.displayName);
    }
  }

  async remove(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, 'delete from runtime_profile where workspace_id = $1 and id = $2 returning id', [
      workspaceId,
      id,
    ]);
    return rows.length > 0;
  }
}
