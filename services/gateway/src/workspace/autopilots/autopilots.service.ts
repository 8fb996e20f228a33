import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { uuidv7 } from '@switchyard/contracts';
import { AgentsRepository } from '../agents/agents.repository';
import { isUniqueViolation } from '../database/unique-violation';
import { ApiError, notFound } from '../common/api-error';
import { invalidField } from '../issues/invalid-field';
import { TasksService } from '../tasks/tasks.service';
import { AutopilotFiringService } from './autopilot-firing.service';
import {
  AUTOPILOT_PAYLOAD_MAX_CHARACTERS,
  type AutopilotFiring,
  type AutopilotView,
  type CreateAutopilotInput,
  type CreatedAutopilot,
  type UpdateAutopilotInput,
} from './autopilot.schemas';
import { AutopilotsRepository, autopilotViewOf, type AutopilotRecord } from './autopilots.repository';

const hashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** `ywh_` + 32 random bytes; only its SHA-256 is stored. */
export function newWebhookSecret(): string {
  return `ywh_${randomBytes(32).toString('base64url')}`;
}

function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashOf(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function checkedPayloadSize(payload: unknown): void {
  const size = payload === undefined ? 0 : JSON.stringify(payload).length;
  if (size > AUTOPILOT_PAYLOAD_MAX_CHARACTERS) {
    throw new ApiError('payload_too_large', `the payload is ${size} characters as JSON; an autopilot takes at most ${AUTOPILOT_PAYLOAD_MAX_CHARACTERS}`);
  }
}

/** Autopilots of a workspace: definitions (agent checked before writing), manual runs and the webhook. */
@Injectable()
export class AutopilotsService {
  constructor(
    private readonly autopilots: AutopilotsRepository,
    private readonly agents: AgentsRepository,
    private readonly tasks: TasksService,
    private readonly firing: AutopilotFiringService,
  ) {}

  async list(workspaceId: string): Promise<AutopilotView[]> {
    return (await this.autopilots.list(workspaceId)).map(autopilotViewOf);
  }

  async find(workspaceId: string, id: string): Promise<AutopilotView> {
    return autopilotViewOf(await this.required(workspaceId, id));
  }

  async create(workspaceId: string, input: CreateAutopilotInput): Promise<CreatedAutopilot> {
    await this.checkAgent(workspaceId, input.agentId);
    const webhookSecret = newWebhookSecret();
    const created = await this.named(input.name, () => this.autopilots.insert({ workspaceId, input, webhookSecretHash: hashOf(webhookSecret) }));
    return { ...autopilotViewOf(created), webhookSecret };
  }

  async update(workspaceId: string, id: string, input: UpdateAutopilotInput): Promise<AutopilotView> {
    const stored = await this.required(workspaceId, id);
    if (input.agentId !== undefined) await this.checkAgent(workspaceId, input.agentId);
    const restartSchedule = (input.schedule !== undefined && input.schedule !== stored.schedule) || (input.enabled === true && !stored.enabled);
    const updated = await this.named(input.name ?? stored.name, () => this.autopilots.update({ workspaceId, id, input, restartSchedule }));
    if (!updated) throw notFound('autopilot', id);
    return autopilotViewOf(updated);
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.autopilots.delete(workspaceId, id))) throw notFound('autopilot', id);
  }

  /** A manual run works on a disabled autopilot too: disabling stops the schedule and the webhook. */
  async run(workspaceId: string, id: string, payload: unknown, idempotencyKey: string | undefined): Promise<AutopilotFiring> {
    checkedPayloadSize(payload);
    const autopilot = await this.required(workspaceId, id);
    await this.tasks.usableAgent(workspaceId, autopilot.agentId);
    return this.firing.fire({ workspaceId, autopilotId: id, trigger: 'manual', discriminator: idempotencyKey ?? uuidv7(), payload });
  }

  /** Authenticated by the autopilot's own secret; an unknown id and a wrong secret are the same 401. */
  async webhook(options: {
    readonly id: string;
    readonly secret: string | undefined;
    readonly payload: unknown;
    readonly idempotencyKey: () => string | undefined;
  }): Promise<AutopilotFiring> {
    const { id, secret, payload } = options;
    const autopilot = await this.autopilots.findForWebhook(id);
    if (!autopilot || secret === undefined || !secretMatches(secret, autopilot.webhookSecretHash)) {
      throw new ApiError('unauthenticated', 'missing or wrong X-Switchyard-Autopilot-Secret for this autopilot');
    }
    if (!autopilot.enabled) throw new ApiError('autopilot_disabled', `autopilot ${id} is disabled`);
    const idempotencyKey = options.idempotencyKey();
    checkedPayloadSize(payload);
    await this.tasks.usableAgent(autopilot.workspaceId, autopilot.agentId);
    return this.firing.fire({ workspaceId: autopilot.workspaceId, autopilotId: id, trigger: 'webhook', discriminator: idempotencyKey ?? uuidv7(), payload });
  }

  /** A new secret; the old one stops working at once. */
  async rotateSecret(workspaceId: string, id: string): Promise<CreatedAutopilot> {
    await this.required(workspaceId, id);
    const webhookSecret = newWebhookSecret();
    const updated = await this.autopilots.setWebhookSecretHash({ workspaceId, id, webhookSecretHash: hashOf(webhookSecret) });
    if (!updated) throw notFound('autopilot', id);
    return { ...autopilotViewOf(updated), webhookSecret };
  }

  private async checkAgent(workspaceId: string, agentId: string): Promise<void> {
    const agent = await this.agents.find(workspaceId, agentId);
    if (!agent) throw invalidField('agentId', `agent ${agentId} not found`);
    if (agent.archivedAt !== null) throw new ApiError('agent_archived', `agent ${agentId} is archived`);
  }

  private async named<Result>(name: string, write: () => Promise<Result>): Promise<Result> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'autopilot_workspace_name')) throw new ApiError('autopilot_name_taken', `the workspace has an autopilot named ${name}`);
      throw error;
    }
  }

  private async required(workspaceId: string, id: string): Promise<AutopilotRecord> {
    const autopilot = await this.autopilots.find(workspaceId, id);
    if (!autopilot) throw notFound('autopilot', id);
    return autopilot;
  }
}
