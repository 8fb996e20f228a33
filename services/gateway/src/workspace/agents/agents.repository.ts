import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE, type SecretKeyring } from '@switchyard/persistence';
import { GATEWAY_SECRET_KEYRING } from '../../gateway.injection-keys';
import { agentSecretsAtRest } from './agent-secrets.at-rest';
import { returningRows } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { setClause } from '../database/update-set';
import { ApiError } from '../common/api-error';
import { isoOf, isoOrNull } from '../common/api-schemas';
import { restoreMaskedMcpServers, restoreMaskedValues } from './agent-secrets.mask';
import type { CreateAgentInput, McpServers, UpdateAgentInput } from './agent.schemas';

/** An agent as read, secrets opened: never returned as it is (see `agentViewOf`). */
export interface AgentRecord {
  readonly id: string;
  readonly name: string;
  readonly instructions: string;
  readonly runtimeId: string;
  readonly model: string | null;
  readonly thinkingLevel: string | null;
  readonly env: Record<string, string>;
  readonly extraArgs: string[];
  readonly mcpServers: McpServers;
  readonly skills: string[];
  readonly maxConcurrentTasks: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archivedAt: string | null;
}

interface AgentRow {
  id: string;
  name: string;
  instructions: string;
  runtime_id: string;
  model: string | null;
  thinking_level: string | null;
  env: Record<string, string>;
  extra_args: string[];
  mcp_servers: McpServers;
  skills: string[];
  max_concurrent_tasks: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

const COLUMNS =
  'id, name, instructions, runtime_id, model, thinking_level, env, extra_args, mcp_servers, skills, max_concurrent_tasks, created_at, updated_at, archived_at';

function recordOf(row: AgentRow, keyring: SecretKeyring): AgentRecord {
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    runtimeId: row.runtime_id,
    model: row.model,
    thinkingLevel: row.thinking_level,
    env: agentSecretsAtRest.openEnv(keyring, row.env),
    extraArgs: row.extra_args,
    mcpServers: agentSecretsAtRest.openServers(keyring, row.mcp_servers),
    skills: row.skills,
    maxConcurrentTasks: row.max_concurrent_tasks,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    archivedAt: isoOrNull(row.archived_at),
  };
}

function nameTaken(error: unknown, name: string | undefined): unknown {
  return isUniqueViolation(error, 'agent_name_per_workspace') ? new ApiError('agent_name_taken', `an active agent named ${JSON.stringify(name)} exists`) : error;
}

/** Agents of one workspace; every query is scoped by the caller's workspace id. Secret values are sealed at rest. */
@Injectable()
export class AgentsRepository {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_SECRET_KEYRING) private readonly keyring: SecretKeyring,
  ) {}

  async list(workspaceId: string, options: { readonly includeArchived: boolean }): Promise<AgentRecord[]> {
    const rows = await this.dataSource.query<AgentRow[]>(
      `select ${COLUMNS} from agent where workspace_id = $1 and ($2::boolean or archived_at is null) order by name, id`,
      [workspaceId, options.includeArchived],
    );
    return rows.map((row) => recordOf(row, this.keyring));
  }

  async find(workspaceId: string, id: string): Promise<AgentRecord | undefined> {
    const [row] = await this.dataSource.query<AgentRow[]>(`select ${COLUMNS} from agent where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? recordOf(row, this.keyring) : undefined;
  }

  async create(workspaceId: string, input: CreateAgentInput): Promise<AgentRecord> {
    try {
      const [row] = await this.dataSource.query<AgentRow[]>(
        `insert into agent (id, workspace_id, name, instructions, runtime_id, model, thinking_level, env, extra_args, mcp_servers, skills, max_concurrent_tasks)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb, $12) returning ${COLUMNS}`,
        [
          uuidv7(),
          workspaceId,
          input.name,
          input.instructions ?? '',
          input.runtimeId,
          input.model ?? null,
          input.thinkingLevel ?? null,
          JSON.stringify(agentSecretsAtRest.sealEnv(this.keyring, input.env ?? {})),
          JSON.stringify(input.extraArgs ?? []),
          JSON.stringify(agentSecretsAtRest.sealServers(this.keyring, input.mcpServers ?? {})),
          JSON.stringify(input.skills ?? []),
          input.maxConcurrentTasks ?? 1,
        ],
      );
      if (!row) throw new Error('insert into agent returned no row');
      return recordOf(row, this.keyring);
    } catch (error) {
      throw nameTaken(error, input.name);
    }
  }

  /** Undefined when the workspace has no such agent; an archived agent cannot change. */
  async update(workspaceId: string, id: string, input: UpdateAgentInput): Promise<AgentRecord | undefined> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const [stored] = await manager.query<AgentRow[]>(`select ${COLUMNS} from agent where workspace_id = $1 and id = $2 for update`, [workspaceId, id]);
        if (!stored) return undefined;
        if (stored.archived_at !== null) throw new ApiError('agent_archived', `agent ${id} is archived`);
        const storedEnv = agentSecretsAtRest.openEnv(this.keyring, stored.env);
        const storedServers = agentSecretsAtRest.openServers(this.keyring, stored.mcp_servers);
        const env = input.env && restoreMaskedValues({ next: input.env, stored: storedEnv, field: 'env' });
        const servers = input.mcpServers && restoreMaskedMcpServers(input.mcpServers, storedServers);
        const set = setClause(
          [
            { column: 'name', value: input.name },
            { column: 'instructions', value: input.instructions },
            { column: 'runtime_id', value: input.runtimeId },
            { column: 'model', value: input.model },
            { column: 'thinking_level', value: input.thinkingLevel },
            { column: 'env', value: env && agentSecretsAtRest.sealEnv(this.keyring, env), json: true },
            { column: 'extra_args', value: input.extraArgs, json: true },
            { column: 'mcp_servers', value: servers && agentSecretsAtRest.sealServers(this.keyring, servers), json: true },
            { column: 'skills', value: input.skills, json: true },
            { column: 'max_concurrent_tasks', value: input.maxConcurrentTasks },
          ],
          3,
        );
        const [row] = await returningRows<AgentRow>(manager, `update agent set ${set.sql} where workspace_id = $1 and id = $2 returning ${COLUMNS}`, [
          workspaceId,
          id,
          ...set.parameters,
        ]);
        return row ? recordOf(row, this.keyring) : undefined;
      });
    } catch (error) {
      throw nameTaken(error, input.name);
    }
  }

  /**
   * Seals again every agent whose secret values are in clear (rows from before sealing) or sealed
   * under a key other than the first of `GATEWAY_SECRET_KEYS`: what lets an old key be dropped.
   * Row by row, each under its lock, so replicas may run it at once; an agent sealed under a key
   * the ring lacks is left as it is and counted.
   */
  async resealSecrets(): Promise<{ readonly resealed: number; readonly unreadable: string[] }> {
    const rows = await this.dataSource.query<Array<Pick<AgentRow, 'id' | 'env' | 'mcp_servers'>>>('select id, env, mcp_servers from agent');
    let resealed = 0;
    const unreadable: string[] = [];
    for (const candidate of rows) {
      if (!agentSecretsAtRest.needResealing(this.keyring, candidate.env, candidate.mcp_servers)) continue;
      await this.dataSource.transaction(async (manager) => {
        const [row] = await manager.query<Array<Pick<AgentRow, 'env' | 'mcp_servers'>>>('select env, mcp_servers from agent where id = $1 for update', [candidate.id]);
        if (!row || !agentSecretsAtRest.needResealing(this.keyring, row.env, row.mcp_servers)) return;
        const env = agentSecretsAtRest.sealEnv(this.keyring, agentSecretsAtRest.openEnv(this.keyring, row.env));
        const servers = agentSecretsAtRest.sealServers(this.keyring, agentSecretsAtRest.openServers(this.keyring, row.mcp_servers));
        await manager.query('update agent set env = $2::jsonb, mcp_servers = $3::jsonb where id = $1', [candidate.id, JSON.stringify(env), JSON.stringify(servers)]);
        resealed += 1;
      }).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.code === 'secret_unreadable')) throw error;
        unreadable.push(candidate.id);
      });
    }
    return { resealed, unreadable };
  }

  /** Archives (idempotently: the first archive time stays); false when the workspace has no such agent. */
  async archive(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      this.dataSource,
      `update agent set archived_at = coalesce(archived_at, now()), updated_at = case when archived_at is null then now() else updated_at end
        where workspace_id = $1 and id = $2 returning id`,
      [workspaceId, id],
    );
    return rows.length > 0;
  }
}
