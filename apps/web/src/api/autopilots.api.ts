import { api } from './http-client';
import type { TaskSummary } from './tasks.api';

// Autopilots (services/gateway/src/workspace/autopilots/autopilot.schemas.ts; docs/architecture/gateway.md, Autopilots).

export const AUTOPILOT_MODES = ['run_only', 'create_issue'] as const;
export type AutopilotMode = (typeof AUTOPILOT_MODES)[number];
export type AutopilotTrigger = 'schedule' | 'webhook' | 'manual';
/** The header a webhook caller proves itself with: the autopilot's own secret, never an API token. */
export const AUTOPILOT_SECRET_HEADER = 'X-Switchyard-Autopilot-Secret';

export interface Autopilot {
  readonly id: string;
  readonly name: string;
  readonly agentId: string;
  readonly instructions: string;
  readonly mode: AutopilotMode;
  /** 5-field cron in UTC; null: webhook and manual runs only. */
  readonly schedule: string | null;
  readonly enabled: boolean;
  readonly lastFiredMinute: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Returned at creation and rotation only: the gateway keeps the secret's hash. */
export interface CreatedAutopilot extends Autopilot {
  readonly webhookSecret: string;
}

export interface AutopilotInput {
  readonly name: string;
  readonly agentId: string;
  readonly instructions: string;
  readonly mode: AutopilotMode;
  readonly schedule: string | null;
  readonly enabled: boolean;
}

/** What one firing made: the task, and in `create_issue` mode the issue whose assignment made it. */
export interface AutopilotFiring {
  readonly autopilotId: string;
  readonly trigger: AutopilotTrigger;
  readonly issueId: string | null;
  readonly taskId: string;
  readonly repeated: boolean;
}

export interface TaskPage {
  readonly tasks: readonly TaskSummary[];
  readonly nextCursor: string | null;
}

export const autopilotKeys = {
  all: ['autopilots'] as const,
  list: ['autopilots', 'list'] as const,
  agentTasks: (agentId: string, cursor: string | undefined) => ['tasks', 'agent-pages', agentId, cursor ?? 'first'] as const,
};

export async function listAutopilots(): Promise<Autopilot[]> {
  const answer = await api.get<{ autopilots: Autopilot[] }>('/api/autopilots');
  return answer.autopilots;
}

export function createAutopilot(input: AutopilotInput): Promise<CreatedAutopilot> {
  return api.post<CreatedAutopilot>('/api/autopilots', input);
}

export function updateAutopilot(autopilotId: string, input: Partial<AutopilotInput>): Promise<Autopilot> {
  return api.patch<Autopilot>(`/api/autopilots/${encodeURIComponent(autopilotId)}`, input);
}

export function deleteAutopilot(autopilotId: string): Promise<void> {
  return api.delete(`/api/autopilots/${encodeURIComponent(autopilotId)}`);
}

/** A manual firing; `payload` is any JSON, left out when there is none. */
export function runAutopilot(autopilotId: string, payload: unknown): Promise<AutopilotFiring> {
  return api.post<AutopilotFiring>(`/api/autopilots/${encodeURIComponent(autopilotId)}/run`, payload === undefined ? {} : { payload });
}

export function rotateWebhookSecret(autopilotId: string): Promise<CreatedAutopilot> {
  return api.post<CreatedAutopilot>(`/api/autopilots/${encodeURIComponent(autopilotId)}/webhook-secret`);
}

export function webhookUrl(autopilotId: string, origin: string = location.origin): string {
  return `${origin}/api/autopilots/${encodeURIComponent(autopilotId)}/webhook`;
}

/** A ready-to-run call of the webhook (the secret as a placeholder unless given). */
export function webhookCurl(autopilotId: string, secret = '<secret>'): string {
  return `curl -X POST -H '${AUTOPILOT_SECRET_HEADER}: ${secret}' -H 'content-type: application/json' -d '{}' ${webhookUrl(autopilotId)}`;
}

/** One page of an agent's tasks, newest first (the API pages by cursor). */
export function listAgentTasks(input: { readonly agentId: string; readonly cursor: string | undefined; readonly limit: number }): Promise<TaskPage> {
  const query = new URLSearchParams({ agentId: input.agentId, limit: String(input.limit) });
  if (input.cursor) query.set('cursor', input.cursor);
  return api.get<TaskPage>(`/api/tasks?${query.toString()}`);
}

/**
 * Which autopilot fired a task, and how, from the task's detail (`source`, which the task detail
 * carries; read defensively, since the shared task type does not declare it).
 */
export function autopilotSourceOf(detail: object | undefined): { readonly autopilotId: string; readonly trigger: string } | undefined {
  const source: unknown = detail && 'source' in detail ? detail.source : undefined;
  if (typeof source !== 'object' || source === null || !('kind' in source) || source.kind !== 'autopilot') return undefined;
  const autopilotId = 'autopilotId' in source ? source.autopilotId : undefined;
  const trigger = 'trigger' in source ? source.trigger : undefined;
  return typeof autopilotId === 'string' && typeof trigger === 'string' ? { autopilotId, trigger } : undefined;
}
