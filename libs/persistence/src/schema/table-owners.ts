/**
 * Who owns each table. An owner migrates its tables (`schema/<owner>/migrations`), is the only one
 * to write them, and publishes typed readers for everyone else (`schema/<owner>/*.reader.ts`).
 * `tools/architecture` fails when SQL naming a table, or its TypeORM entity, appears outside the
 * folders listed here (tests excepted: they seed and inspect rows).
 */
export interface TableOwner {
  readonly name: string;
  /** Repository folders, relative to the root, where the owner's SQL may live. */
  readonly folders: readonly string[];
  readonly tables: readonly string[];
  readonly entities: readonly string[];
}

const schemaFolder = (owner: string): string => `libs/persistence/src/schema/${owner}`;

export const TABLE_OWNERS: readonly TableOwner[] = [
  {
    // The record every service writes through: events with their outbox, command replies, projection checkpoints.
    name: 'record',
    folders: [schemaFolder('record'), 'libs/event-store/src'],
    tables: ['outbox_event', 'processed_command', 'consumer_checkpoint'],
    entities: ['OutboxEventEntity', 'ProcessedCommandEntity', 'ConsumerCheckpointEntity'],
  },
  {
    name: 'queue',
    folders: [schemaFolder('queue'), 'services/queue/src'],
    tables: ['agent_task_queue', 'agent_limit', 'runtime_presence', 'task_token', 'task_secret_bundle', 'daemon_sealing_key'],
    entities: [],
  },
  {
    name: 'transcript',
    folders: [schemaFolder('transcript'), 'services/transcript/src'],
    tables: ['task_message', 'task_usage'],
    entities: [],
  },
  {
    name: 'session-resume',
    folders: [schemaFolder('session-resume'), 'services/session-resume/src'],
    tables: ['session_resume_task', 'session_resume_retired'],
    entities: [],
  },
  {
    name: 'gateway',
    folders: [schemaFolder('gateway'), 'services/gateway/src'],
    tables: ['workspace', 'agent', 'api_token', 'runtime_profile', 'runtime_view', 'issue', 'issue_comment', 'chat_session', 'chat_message', 'task_trigger', 'autopilot', 'daemon_enrollment', 'enrolled_daemon', 'skill', 'skill_version', 'workspace_secret', 'project', 'project_repository', 'app_user', 'user_identity', 'user_session', 'workspace_member', 'workspace_invitation', 'user_one_time_code', 'audit_event'],
    entities: [],
  },
];
