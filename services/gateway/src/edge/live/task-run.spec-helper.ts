import { createEvent, timelineEntryOf, type AgentMessage, type SwitchyardEvent, type TaskMessageEvent } from '@switchyard/contracts';
import { sampleAgentSnapshot } from '@switchyard/testing';
import type { ServerFrame } from './live.frames';
import { taskStatusChangeOf } from './task-status.mapper';

/** A small deterministic generator (mulberry32), so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [low, high]. */
export function randomInt(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

const AGENT = sampleAgentSnapshot();
const LATER = '2030-01-01T00:00:00.000Z';

/** Lifecycle events of one task, built valid; only those the feed turns into `task` frames, plus a heartbeat it ignores. */
function lifecycle(taskId: string) {
  return {
    enqueued: () =>
      createEvent({
        type: 'task.enqueued',
        payload: {
          taskId,
          workspaceId: 'default',
          agentId: 'agent-1',
          agent: AGENT,
          runtimeId: 'runtime-1',
          source: { kind: 'quick_create' },
          priority: 0,
          prompt: 'secret prompt',
          forceFreshSession: false,
          maxAttempts: 2,
          expiresAt: null,
          retryOfTaskId: null,
        },
      }),
    claimed: (attempt: number) => createEvent({ type: 'task.claimed', payload: { taskId, attempt, daemonId: 'daemon-1', runtimeId: 'runtime-1', startBy: LATER } }),
    started: (attempt: number) =>
      createEvent({ type: 'task.started', payload: { taskId, attempt, daemonId: 'daemon-1', runtimeId: 'runtime-1', workDir: '/w', resumedSessionId: null, leaseExpiresAt: LATER } }),
    heartbeat: (attempt: number) => createEvent({ type: 'task.heartbeat', payload: { taskId, attempt, daemonId: 'daemon-1', leaseExpiresAt: LATER } }),
    requeued: (attempt: number) => createEvent({ type: 'task.requeued', payload: { taskId, attempt, reason: 'runtime_offline', message: 'lease lost' } }),
    completed: (attempt: number) => createEvent({ type: 'task.completed', payload: { taskId, attempt, sessionId: 'session-1', output: 'done', durationMs: 5, usage: [], repositories: [] } }),
  };
}

/** How many kinds `messageOfKind` cycles through. */
const MESSAGE_KINDS = 9;

/** A message of each kind, in turn; tool results answer the call before them. */
function messageOfKind(kind: number, seq: number): AgentMessage {
  switch (kind % MESSAGE_KINDS) {
    case 0:
      return { type: 'text', text: `line ${seq}` };
    case 1:
      return { type: 'thinking', text: `thought ${seq}` };
    case 2:
      return { type: 'tool-use', tool: 'Bash', callId: `call-${seq}`, input: { command: `echo ${seq}` } };
    case 3:
      return { type: 'tool-result', callId: `call-${seq - 1}`, output: `${seq - 1}`, status: 'ok' };
    case 4:
      return { type: 'status', state: 'working', progress: `${seq}` };
    case 5:
      return { type: 'log', level: 'info', text: `log ${seq}` };
    case 6:
      return { type: 'usage', model: 'model-1', inputTokens: seq, outputTokens: seq };
    case 7:
      return { type: 'notice', code: 'repository_work', text: `repository note ${seq}` };
    default:
      return { type: 'error', code: 'tool_failed', message: `error ${seq}` };
  }
}

/**
 * A task's run as the stream holds it, in the order it happened: queued, dispatched, running,
 * early status, warning and usage messages, then messages of every kind (a tool result always
 * after its call), heartbeats, a lost lease and a second attempt half way, and `completed` after
 * the last message. `messageCount` seqs, 0 to `messageCount - 1`.
 */
export function scriptedTaskRun(options: { readonly taskId: string; readonly messageCount: number; readonly random: () => number }): SwitchyardEvent[] {
  const { taskId, messageCount, random } = options;
  const events = lifecycle(taskId);
  const run: SwitchyardEvent[] = [events.enqueued(), events.claimed(1), events.started(1)];
  const secondAttemptAt = Math.floor(messageCount / 2);
  let attempt = 1;
  const early: AgentMessage[] = [
    { type: 'status', state: 'started', sessionId: 'session-1' },
    { type: 'log', level: 'warn', text: 'early warning' },
    { type: 'usage', model: 'model-1', inputTokens: 1, outputTokens: 0 },
  ];
  let kind = 0;
  for (let seq = 0; seq < messageCount; seq += 1) {
    if (seq === secondAttemptAt) {
      run.push(events.requeued(attempt), events.claimed(attempt + 1), events.started(attempt + 1));
      attempt += 1;
    }
    // Every kind in turn, with a random run of text in between; a call is always followed by its result.
    const message = early[seq] ?? (kind % MESSAGE_KINDS === 2 || kind % MESSAGE_KINDS === 3 || random() < 0.6 ? messageOfKind(kind++, seq) : messageOfKind(0, seq));
    run.push(messageEvent({ taskId, seq, attempt, message }));
    if (random() < 0.05) run.push(events.heartbeat(attempt));
  }
  run.push(events.completed(attempt));
  return run;
}

export function messageEvent(options: { readonly taskId: string; readonly seq: number; readonly attempt: number; readonly message: AgentMessage }): TaskMessageEvent {
  const { taskId, seq, attempt, message } = options;
  return createEvent({ type: 'task.message', payload: { taskId, seq, attempt, message } });
}

/** What identifies a frame of a task feed in a comparison; undefined for frames that are not about the task. */
export function frameKeyOf(frame: ServerFrame): string | undefined {
  switch (frame.type) {
    case 'timeline':
      return `${frame.entry.seq} timeline:${frame.entry.type}`;
    case 'activity':
      return `${frame.seq} activity:${frame.message.type}`;
    case 'task':
      return `task ${frame.event} attempt ${frame.attempt ?? '-'}`;
    default:
      return undefined;
  }
}

/** The keys of the frames a client must receive for these events, in order: what one uninterrupted feed sends. */
export function expectedKeysOf(events: readonly SwitchyardEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.type === 'task.message') {
      const entry = timelineEntryOf(event);
      return [entry ? `${entry.seq} timeline:${entry.type}` : `${event.payload.seq} activity:${event.payload.message.type}`];
    }
    const change = taskStatusChangeOf(event);
    return change ? [`task ${change.event} attempt ${change.attempt ?? '-'}`] : [];
  });
}

/** The frames about `taskId` up to and including the one with `seq`: what a client whose socket died right after it holds. */
export function framesThroughSeq(frames: readonly ServerFrame[], taskId: string, seq: number): ServerFrame[] {
  const about = frames.filter((frame) => 'taskId' in frame && frame.taskId === taskId && frameKeyOf(frame) !== undefined);
  const last = about.findIndex((frame) => (frame.type === 'timeline' ? frame.entry.seq : frame.type === 'activity' ? frame.seq : undefined) === seq);
  if (last < 0) throw new Error(`no frame with seq ${seq}`);
  return about.slice(0, last + 1);
}

/** Seqs of the messages among these events, for picking drop points. */
export function messageSeqsOf(events: readonly SwitchyardEvent[]): number[] {
  return events.flatMap((event) => (event.type === 'task.message' ? [event.payload.seq] : []));
}
