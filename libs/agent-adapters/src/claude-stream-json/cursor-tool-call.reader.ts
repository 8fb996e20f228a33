import type { JsonValue } from '@switchyard/contracts';
import type { CursorToolCallBody, CursorToolCallEvent } from './cursor-wire.types';

/** What one Cursor `tool_call` event says, in the terms of a unified tool-use / tool-result. */
export interface CursorToolCall {
  /** The kind without its `ToolCall` suffix: `shell`, `edit`, `read`, `mcp`, ... */
  readonly tool: string;
  readonly input: JsonValue;
  /** Only on `completed`. */
  readonly outcome?: { readonly output: string; readonly status: 'ok' | 'error' };
}

const TOOL_CALL_SUFFIX = /ToolCall$/;
const FAILED_OUTCOMES = ['failure', 'error', 'rejected', 'permissionDenied'];

/** Reads the tool kind, arguments and (when completed) the outcome; undefined when no kind is present. */
export function readCursorToolCall(event: CursorToolCallEvent): CursorToolCall | undefined {
  const kind = Object.keys(event.tool_call ?? {}).find((key) => TOOL_CALL_SUFFIX.test(key));
  if (!kind) return undefined;
  const body = (event.tool_call[kind] ?? {}) as CursorToolCallBody;
  const tool = kind.replace(TOOL_CALL_SUFFIX, '') || kind;
  const input = (body.args ?? null) as JsonValue;
  if (event.subtype !== 'completed') return { tool, input };
  return { tool, input, outcome: readOutcome(body.result) };
}

function readOutcome(result: CursorToolCallBody['result']): { output: string; status: 'ok' | 'error' } {
  if (!result) return { output: '', status: 'ok' };
  const failedKey = FAILED_OUTCOMES.find((key) => key in result);
  if (failedKey) return { output: describe(result[failedKey]), status: 'error' };
  const success = result['success'];
  if (success === undefined) return { output: describe(result), status: 'ok' };
  // A shell command that ran but exited non-zero is reported as `success` with its exit code.
  const exitCode = (success as { exitCode?: unknown }).exitCode;
  return { output: describe(success), status: typeof exitCode === 'number' && exitCode !== 0 ? 'error' : 'ok' };
}

/** The human part of an outcome: shell output, an edit's message, or the object itself. */
function describe(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return JSON.stringify(value);
  const fields = value as Record<string, unknown>;
  if (typeof fields['interleavedOutput'] === 'string') return fields['interleavedOutput'];
  if (typeof fields['stdout'] === 'string' || typeof fields['stderr'] === 'string') {
    return [fields['stdout'], fields['stderr']].filter((part): part is string => typeof part === 'string' && part !== '').join('\n');
  }
  for (const key of ['message', 'error', 'reason', 'content']) {
    if (typeof fields[key] === 'string') return fields[key];
  }
  return JSON.stringify(value);
}
