import { createEvent, type AgentMessage, type TaskMessageEvent } from '@switchyard/contracts';

/** The daemon the benches publish timelines as (the subject's publisher, part of the message id). */
export const BENCH_DAEMON_ID = 'bench-daemon';

const TOOL_OUTPUT = Array.from({ length: 30 }, (_, line) => `PASS src/module-${line}/feature.unit.spec.ts (${line * 7} ms)`).join('\n');

/** A realistic mix of timeline messages (every one becomes a row). */
export function messageFor(seq: number): AgentMessage {
  const callId = `toolu_${Math.floor(seq / 4)}`;
  switch (seq % 4) {
    case 0:
      return { type: 'text', text: `I will look at the failing test in src/loader.ts and then run the suite again (step ${seq}). `.repeat(3) };
    case 1:
      return { type: 'tool-use', tool: 'Bash', callId, input: { command: 'npx jest src/loader --runInBand', description: 'Run the loader tests', timeout: 120000 } };
    case 2:
      return { type: 'tool-result', callId, tool: 'Bash', output: TOOL_OUTPUT, status: 'ok' };
    default:
      return { type: 'thinking', text: 'The fixture path is resolved against the wrong directory; fix the join and rerun.' };
  }
}

export function timelineEvent(taskId: string, seq: number, sanitize: (message: AgentMessage) => AgentMessage): TaskMessageEvent {
  return createEvent({ type: 'task.message', payload: { taskId, seq, attempt: 1, message: sanitize(messageFor(seq)) } });
}
