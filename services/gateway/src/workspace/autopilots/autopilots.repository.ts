import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { setClause } from '../database/update-set';
import { isoOf, isoOrNull } from '../common/api-schemas';
import type { AutopilotMode, AutopilotView, CreateAutopilotInput, UpdateAutopilotInput } from './autopilot.schemas';

export interface AutopilotRecord extends AutopilotView {
  readonly workspaceId: string;
  readonly webhookSecretHash: string;
  readonly scheduleSince: string;
}

interface AutopilotRow {
  id: string;
  workspace_id: string;
  name: string;
  agent_id: string;
  instructions: string;
  mode: AutopilotMode;
  schedule: string | null;
  enabled: boolean;
  webhook_secret_hash: string;
  schedule_since: Date;
  last_fired_minute: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, workspace_id, name, agent_id, instructions, mode, schedule, enabled, webhook_secret_hash, schedule_since, last_fired_minute, created_at, updated_at';

function recordOf(row: AutopilotRow): AutopilotRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    agentId: row.agent_id,
    instructions: row.instructions,
    mode: row.mode,
    schedule: row.schedule,
    enabled: row.enabled,
    webhookSecretHash: row.webhook_secret_hash,
    scheduleSince: isoOf(row.schedule_since),
    lastFiredMinute: isoOrNull(row.last_fired_minute),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

export function autopilotViewOf(record: AutopilotRecord): AutopilotView {
  const { workspaceId: _workspace, webhookSecretHash: _hash, scheduleSince: _since, ...view } = record;
  return view;
}

/** Autopilots; every query of a client's request names its workspace. The scheduler's reads span workspaces. */
@Injectable()
export class AutopilotsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string): Promise<AutopilotRecord[]> {
    const rows = await this.dataSource.query<AutopilotRow[]>(`select ${COLUMNS} from autopilot where workspace_id = $1 order by created_at desc, id desc`, [workspaceId]);
    return rows.map(recordOf);
  }

  async find(workspaceId: string, id: string, runner: RawQueryRunner = this.dataSource, options: { forUpdate?: boolean } = {}): Promise<AutopilotRecord | undefined> {
    const [row] = await runner.query<AutopilotRow[]>(`select ${COLUMNS} from autopilot where workspace_id = $1 and id = $2${options.forUpdate ? ' for update' : ''}`, [
      workspaceId,
      id,
    ]);
    return row ? recordOf(row) : undefined;
  }

  /** By id alone: the webhook knows no workspace until the secret matched this autopilot's. */
  async findForWebhook(id: string): Promise<AutopilotRecord | undefined> {
    const [row] = await this.dataSource.query<AutopilotRow[]>(`select ${COLUMNS} from autopilot where id = $1`, [id]);
    return row ? recordOf(row) : undefined;
  }

  async insert(options: { workspaceId: string; input: CreateAutopilotInput; webhookSecretHash: string }): Promise<AutopilotRecord> {
    const { input } = options;
    const [row] = await this.dataSource.query<AutopilotRow[]>(
      `insert into autopilot (id, workspace_id, name, agent_id, instructions, mode, schedule, enabled, webhook_secret_hash)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
      [uuidv7(), options.workspaceId, input.name, input.agentId, input.instructions, input.mode ?? 'run_only', input.schedule ?? null, input.enabled ?? true, options.webhookSecretHash],
    );
    if (!row) throw new Error('insert into autopilot returned no row');
    return recordOf(row);
  }

  /** A new schedule or re-enabling restarts the count of due minutes now: nothing from before fires. */
  async update(options: { workspaceId: string; id: string; input: UpdateAutopilotInput; restartSchedule: boolean }): Promise<AutopilotRecord | undefined> {
    const { input } = options;
    const set = setClause(
      [
        { column: 'name', value: input.name },
        { column: 'agent_id', value: input.agentId },
        { column: 'instructions', value: input.instructions },
        { column: 'mode', value: input.mode },
        { column: 'schedule', value: input.schedule },
        { column: 'enabled', value: input.enabled },
      ],
      3,
    );
    const restart = options.restartSchedule ? ', schedule_since = now()' : '';
    const [row] = await returningRows<AutopilotRow>(this.dataSource, `update autopilot set ${set.sql}${restart} where workspace_id = $1 and id = $2 returning ${COLUMNS}`, [
      options.workspaceId,
      options.id,
      ...set.parameters,
    ]);
    return row ? recordOf(row) : undefined;
  }

  async setWebhookSecretHash(options: { workspaceId: string; id: string; webhookSecretHash: string }): Promise<AutopilotRecord | undefined> {
    const [row] = await returningRows<AutopilotRow>(
      this.dataSource,
      `update autopilot set webhook_secret_hash = $3, updated_at = now() where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
      [options.workspaceId, options.id, options.webhookSecretHash],
    );
    return row ? recordOf(row) : undefined;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, `delete from autopilot where workspace_id = $1 and id = $2 returning id`, [workspaceId, id]);
    return rows.length > 0;
  }

  /** Every enabled autopilot with a schedule, in every workspace: the scheduler's candidates. */
  async scheduledIds(): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(`select id from autopilot where enabled and schedule is not null order by id`);
    return rows.map((row) => row.id);
  }

  /**
   * Locks one scheduled autopilot for this transaction, or answers undefined when another replica
   * holds it (it is firing it now) or it is no longer enabled and scheduled.
   */
  async lockScheduled(runner: RawQueryRunner, id: string): Promise<AutopilotRecord | undefined> {
    const [row] = await runner.query<AutopilotRow[]>(`select ${COLUMNS} from autopilot where id = $1 and enabled and schedule is not null for update skip locked`, [id]);
    return row ? recordOf(row) : undefined;
  }

  async setLastFiredMinute(runner: RawQueryRunner, options: { id: string; minute: Date }): Promise<void> {
    await runner.query(`update autopilot set last_fired_minute = greatest(last_fired_minute, $2::timestamptz) where id = $1`, [options.id, options.minute]);
  }

  transaction<Result>(work: (runner: RawQueryRunner) => Promise<Result>): Promise<Result> {
    return this.dataSource.transaction((manager) => work(manager));
  }
}
