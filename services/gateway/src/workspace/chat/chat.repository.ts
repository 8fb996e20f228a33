import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { isoOf } from '../common/api-schemas';
import type { ChatMessageView, ChatSessionListQuery, ChatSessionView, chatAttachmentSchema } from './chat.schemas';

type ChatAttachment = z.infer<typeof chatAttachmentSchema>;

interface SessionRow {
  id: string;
  agent_id: string;
  title: string;
  force_fresh_session: boolean;
  created_at: Date;
}

interface MessageRow {
  id: string;
  chat_session_id: string;
  role: ChatMessageView['role'];
  body: string;
  attachments: ChatAttachment[];
  created_at: Date;
}

const SESSION_COLUMNS = 'id, agent_id, title, force_fresh_session, created_at';
const MESSAGE_COLUMNS = 'id, chat_session_id, role, body, attachments, created_at';

const sessionOf = (row: SessionRow): ChatSessionView => ({
  id: row.id,
  agentId: row.agent_id,
  title: row.title,
  forceFreshSession: row.force_fresh_session,
  createdAt: isoOf(row.created_at),
});

const messageOf = (row: MessageRow): ChatMessageView => ({
  id: row.id,
  chatSessionId: row.chat_session_id,
  role: row.role,
  body: row.body,
  attachments: row.attachments,
  createdAt: isoOf(row.created_at),
});

/** Chat sessions and messages; every query names the workspace. */
@Injectable()
export class ChatRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async createSession(options: { workspaceId: string; agentId: string; title: string }): Promise<ChatSessionView> {
    const [row] = await this.dataSource.query<SessionRow[]>(
      `insert into chat_session (id, workspace_id, agent_id, title) values ($1, $2, $3, $4) returning ${SESSION_COLUMNS}`,
      [uuidv7(), options.workspaceId, options.agentId, options.title],
    );
    if (!row) throw new Error('insert into chat_session returned no row');
    return sessionOf(row);
  }

  async listSessions(workspaceId: string, query: ChatSessionListQuery): Promise<ChatSessionView[]> {
    const rows = await this.dataSource.query<SessionRow[]>(
      `select ${SESSION_COLUMNS} from chat_session where workspace_id = $1 and ($2::text is null or agent_id = $2) order by created_at desc, id desc limit $3`,
      [workspaceId, query.agentId ?? null, query.limit],
    );
    return rows.map(sessionOf);
  }

  async findSession(workspaceId: string, id: string, runner: RawQueryRunner = this.dataSource, options: { forUpdate?: boolean } = {}): Promise<ChatSessionView | undefined> {
    const [row] = await runner.query<SessionRow[]>(`select ${SESSION_COLUMNS} from chat_session where workspace_id = $1 and id = $2${options.forUpdate ? ' for update' : ''}`, [
      workspaceId,
      id,
    ]);
    return row ? sessionOf(row) : undefined;
  }

  async setForceFreshSession(runner: RawQueryRunner, options: { workspaceId: string; id: string; value: boolean }): Promise<void> {
    await runner.query(`update chat_session set force_fresh_session = $3 where workspace_id = $1 and id = $2`, [options.workspaceId, options.id, options.value]);
  }

  async listMessages(workspaceId: string, chatSessionId: string): Promise<ChatMessageView[]> {
    const rows = await this.dataSource.query<MessageRow[]>(
      `select ${MESSAGE_COLUMNS} from chat_message where workspace_id = $1 and chat_session_id = $2 order by created_at, id limit 1000`,
      [workspaceId, chatSessionId],
    );
    return rows.map(messageOf);
  }

  async findMessageByIdempotencyKey(workspaceId: string, chatSessionId: string, key: string): Promise<ChatMessageView | undefined> {
    const [row] = await this.dataSource.query<MessageRow[]>(
      `select ${MESSAGE_COLUMNS} from chat_message where workspace_id = $1 and chat_session_id = $2 and idempotency_key = $3`,
      [workspaceId, chatSessionId, key],
    );
    return row ? messageOf(row) : undefined;
  }

  async insertMessage(
    runner: RawQueryRunner,
    options: { workspaceId: string; chatSessionId: string; body: string; attachments: readonly ChatAttachment[]; idempotencyKey: string | undefined },
  ): Promise<ChatMessageView> {
    const [row] = await runner.query<MessageRow[]>(
      `insert into chat_message (id, chat_session_id, workspace_id, role, body, attachments, idempotency_key)
       values ($1, $2, $3, 'user', $4, $5::jsonb, $6) returning ${MESSAGE_COLUMNS}`,
      [uuidv7(), options.chatSessionId, options.workspaceId, options.body, JSON.stringify(options.attachments), options.idempotencyKey ?? null],
    );
    if (!row) throw new Error('insert into chat_message returned no row');
    return messageOf(row);
  }

  /** Deletes the session with its messages (the foreign key cascades). False when the workspace has no such session. */
  async deleteSession(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, `delete from chat_session where workspace_id = $1 and id = $2 returning id`, [workspaceId, id]);
    return rows.length > 0;
  }

  transaction<Result>(work: (runner: RawQueryRunner) => Promise<Result>): Promise<Result> {
    return this.dataSource.transaction((manager) => work(manager));
  }
}
