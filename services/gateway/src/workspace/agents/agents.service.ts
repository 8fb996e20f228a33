import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { RuntimeViewRepository } from '../runtimes/runtime-view.repository';
import { assertAllowedAgentEnvironment } from './agent-environment.rules';
import { maskMcpServers, maskValues } from './agent-secrets.mask';
import type { AgentView, CreateAgentInput, UpdateAgentInput } from './agent.schemas';
import { AgentsRepository, type AgentRecord } from './agents.repository';

/** The client's view of an agent: secrets masked. */
export function agentViewOf(record: AgentRecord): AgentView {
  return { ...record, env: maskValues(record.env), mcpServers: maskMcpServers(record.mcpServers) };
}

/** Agents are bound to a runtime of their own workspace and set no blocked env key, checked before anything is written. */
@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly runtimes: RuntimeViewRepository,
  ) {}

  async list(workspaceId: string, options: { readonly includeArchived: boolean }): Promise<AgentView[]> {
    return (await this.agents.list(workspaceId, options)).map(agentViewOf);
  }

  async find(workspaceId: string, id: string): Promise<AgentView> {
    const agent = await this.agents.find(workspaceId, id);
    if (!agent) throw notFound('agent', id);
    return agentViewOf(agent);
  }

  async create(workspaceId: string, input: CreateAgentInput): Promise<AgentView> {
    assertAllowedAgentEnvironment(input.env);
    await this.requireRuntime(workspaceId, input.runtimeId);
    return agentViewOf(await this.agents.create(workspaceId, input));
  }

  async update(workspaceId: string, id: string, input: UpdateAgentInput): Promise<AgentView> {
    assertAllowedAgentEnvironment(input.env);
    if (input.runtimeId !== undefined) await this.requireRuntime(workspaceId, input.runtimeId);
    const agent = await this.agents.update(workspaceId, id, input);
    if (!agent) throw notFound('agent', id);
    return agentViewOf(agent);
  }

  async archive(workspaceId: string, id: string): Promise<void> {
    if (!(await this.agents.archive(workspaceId, id))) throw notFound('agent', id);
  }

  private async requireRuntime(workspaceId: string, runtimeId: string): Promise<void> {
    if (!(await this.runtimes.find(workspaceId, runtimeId))) {
      throw new ApiError('unknown_runtime', `runtime ${runtimeId} is not a runtime of this workspace (see GET /api/runtimes)`);
    }
  }
}
