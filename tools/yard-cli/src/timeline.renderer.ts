import type { AgentMessage, TimelineEntry } from '@switchyard/contracts';

const PREVIEW_CHARACTERS = 400;

function preview(text: string): string {
  const flat = text.trimEnd();
  return flat.length > PREVIEW_CHARACTERS ? `${flat.slice(0, PREVIEW_CHARACTERS)}…` : flat;
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n    ');
}

/** One timeline row as terminal text. */
export function renderEntry(entry: TimelineEntry): string {
  const seq = `#${entry.seq}`.padStart(5);
  switch (entry.type) {
    case 'text':
      return `${seq} ${indent(entry.content ?? '')}`;
    case 'thinking':
      return `${seq} (thinking) ${indent(preview(entry.content ?? ''))}`;
    case 'tool_use':
      return `${seq} → ${entry.tool ?? 'tool'} ${preview(JSON.stringify(entry.input))}`;
    case 'tool_result': {
      const status = entry.toolStatus === 'error' ? ' (error)' : '';
      const truncated = entry.outputTruncated ? ' [truncated]' : '';
      return `${seq} ← ${entry.tool ?? 'tool'}${status}${truncated} ${indent(preview(entry.output ?? ''))}`;
    }
    case 'error':
      return `${seq} ✖ ${entry.errorCode ?? 'error'}: ${entry.content ?? ''}`;
    case 'notice':
      return `${seq} ▸ ${entry.noticeCode ?? 'notice'}: ${indent(entry.content ?? '')}`;
  }
}

/** A status, log or usage message as terminal text, or undefined when it is not worth a line. */
export function renderActivity(seq: number, message: AgentMessage): string | undefined {
  const prefix = `#${seq}`.padStart(5);
  switch (message.type) {
    case 'status':
      return `${prefix} · ${message.state}${message.sessionId ? ` (session ${message.sessionId})` : ''}${message.progress ? `: ${message.progress}` : ''}`;
    case 'log':
      return message.level === 'debug' ? undefined : `${prefix} · ${message.level}: ${preview(message.text)}`;
    case 'usage':
      return `${prefix} · usage ${message.model}: ${message.inputTokens} in, ${message.outputTokens} out`;
    default:
      return undefined;
  }
}

/** A task status change as terminal text. */
export function renderStatus(change: { readonly event: string; readonly status: string | null; readonly reason: string | null }): string {
  const reason = change.reason ? ` (${change.reason})` : '';
  return `  == ${change.status ?? change.event}${reason}`;
}
