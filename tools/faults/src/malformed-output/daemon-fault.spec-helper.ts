import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, createCommand, subjects, type AgentMessage, type CommandPayloadOf, type RuntimeProfile } from '@switchyard/contracts';
import { requestReply } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { sampleAgentSnapshot, startSystemProcesses, type ServiceChild, type SystemProcesses } from '@switchyard/testing';
import { FAULT_CLI_PATH, faultScriptArgument, type FaultScript } from './fault-cli.steps';

// What this suite needs of services/daemon/src/daemon-e2e.spec-helper.ts (a tool may not import a
// service): the built system, enqueue, the task row and the timeline.

export interface FaultTaskRow {
  readonly task_id: string;
  readonly status: string;
  readonly failure_reason: string | null;
}

/** One misbehaving runtime: a claude-stream-json profile running the fault CLI with its script. */
export interface FaultProfile {
  readonly profileId: string;
  readonly script: FaultScript;
}

export interface DaemonFaultStack {
  readonly daemonId: string;
  runtimeIdOf(profileId: string): string;
  enqueue(overrides: Pick<CommandPayloadOf<'task.enqueue'>, 'runtimeId' | 'prompt'>): Promise<string>;
  waitForTask(taskId: string, statuses: readonly string[], timeoutMs?: number): Promise<FaultTaskRow>;
  timeline(taskId: string): Promise<AgentMessage[]>;
  /** The `task.failed` events of a task: why the queue was told it failed. */
  failures(taskId: string): Promise<Array<{ readonly reason: string; readonly message: string; readonly detail: string | null }>>;
  readonly daemon: ServiceChild;
  stop(): Promise<void>;
}

/**
 * The built queue and session-resume services on real NATS and Postgres, and one daemon whose
 * runtime profiles each run the fault CLI (a wrapper named `fault-cli` on `DAEMON_PATH`) with one
 * script, kept in a file since a profile's fixed arguments are short.
 */
export async function startDaemonFaultStack(options: { readonly daemonId: string; readonly profiles: readonly FaultProfile[]; readonly daemonEnv: Record<string, string> }): Promise<DaemonFaultStack> {
  const system: SystemProcesses = await startSystemProcesses({ services: ['queue', 'session-resume'] });
  const bin = path.join(system.home, 'fault-bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'fault-cli'), `#!/bin/sh\nexec "${process.execPath}" "${FAULT_CLI_PATH}" "$@"\n`);
  await chmod(path.join(bin, 'fault-cli'), 0o755);
  const profiles: RuntimeProfile[] = [];
  for (const profile of options.profiles) {
    const scriptFile = path.join(bin, `${profile.profileId}.json`);
    await writeFile(scriptFile, faultScriptArgument(profile.script));
    profiles.push({ profileId: profile.profileId, displayName: profile.profileId, protocolFamily: 'claude-stream-json', commandName: 'fault-cli', fixedArgs: [`@${scriptFile}`] });
  }
  const profilesFile = path.join(system.home, 'runtime-profiles.json');
  await writeFile(profilesFile, JSON.stringify(profiles));
  const daemon = await system.startDaemon({
    daemonId: options.daemonId,
    // The workspace of the tasks enqueued here: a daemon refuses any other's.
    env: { DAEMON_WORKSPACE_ID: 'workspace-faults', DAEMON_RUNTIME_PROFILES_FILE: profilesFile, DAEMON_PATH: [bin, process.env['PATH'] ?? ''].join(path.delimiter), ...options.daemonEnv },
  });

  const tasks = async (taskId: string): Promise<FaultTaskRow[]> => {
    const client = new Client({ connectionString: system.databaseUrl });
    await client.connect();
    try {
      return (await client.query<FaultTaskRow>('select task_id, status, failure_reason from agent_task_queue where task_id = $1', [taskId])).rows;
    } finally {
      await client.end();
    }
  };

  return {
    daemonId: options.daemonId,
    runtimeIdOf: (profileId) => `${options.daemonId}-profile-${profileId}`,
    async enqueue({ runtimeId, prompt }) {
      const payload: CommandPayloadOf<'task.enqueue'> = {
        workspaceId: 'workspace-faults',
        agentId: `agent-${runtimeId}`,
        agent: sampleAgentSnapshot(),
        source: { kind: 'quick_create' },
        priority: 0,
        forceFreshSession: false,
        maxAttempts: 1,
        fireAt: null,
        expiresAt: null,
        runtimeId,
        prompt,
      };
      const command = createCommand({ command: 'task.enqueue', payload });
      const reply = await requestReply<unknown, { taskId: string }>(system.connection, {
        subject: subjects.command('task.enqueue'),
        data: command,
        requestId: command.requestId,
        timeoutMs: 30_000,
      });
      if (!reply.ok) throw new Error(`enqueue refused: ${reply.error.message}`);
      return reply.result.taskId;
    },
    async waitForTask(taskId, statuses, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await tasks(taskId);
        if (row && statuses.includes(row.status)) return row;
        if (Date.now() > deadline) throw new Error(`task ${taskId} is ${row?.status ?? 'missing'}, never one of ${statuses.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async timeline(taskId) {
      return (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent({ type: 'task.message', taskId, publisher: options.daemonId }))
        .map((message) => (JSON.parse(message.text) as { payload: { seq: number; message: AgentMessage } }).payload)
        .sort((left, right) => left.seq - right.seq)
        .map((entry) => entry.message);
    },
    async failures(taskId) {
      return (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent({ type: 'task.failed', taskId, publisher: SERVICE_PUBLISHERS.queue }))
        .map((message) => (JSON.parse(message.text) as { payload: { reason: string; message: string; detail: string | null } }).payload);
    },
    daemon,
    // Stops the daemon with the rest of the system.
    stop: () => system.stop(),
  };
}
