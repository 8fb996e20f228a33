import { AGENT_MESSAGE_TYPES, agentMessageSchema, type AgentMessage, type ErrorMessage } from '@switchyard/contracts';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';

/**
 * How deep a tool input or a metadata bag may nest. Far above any real tool call, far below the
 * few thousand levels at which validating or serializing it overflows the stack, here or further
 * down the line (sanitizer, outbox, projector).
 */
export const MAX_JSON_DEPTH = 100;
/** Bounds the replacement error's text: it names the field, it does not dump the message. */
const MAX_PROBLEM_CHARACTERS = 300;
const MAX_TYPE_CHARACTERS = 40;

export type AgentMessageVerdict =
  | { readonly kind: 'valid'; readonly message: AgentMessage }
  /** A tool-use whose input could not be carried: the input is replaced by a small placeholder. */
  | { readonly kind: 'repaired'; readonly message: AgentMessage; readonly problem: string }
  /** Outside the contract: not to be sent; `replacement` tells of it instead. */
  | { readonly kind: 'invalid'; readonly replacement: ErrorMessage; readonly problem: string };

/**
 * Checks a message an adapter emitted against `agentMessageSchema` before anyone downstream sees
 * it, since translators read native fields unchecked. Never throws, whatever the message holds.
 *
 * A tool-use whose only fault is its input (nested too deep, not JSON) keeps its tool and call id
 * with a placeholder input, rather than becoming an error: the CLI did start that call, its
 * tool-result is still coming, and the timeline's pairing and the tool budget both need the call.
 */
export function guardAgentMessage(candidate: AgentMessage): AgentMessageVerdict {
  try {
    return verdictOf(candidate);
  } catch (error) {
    // A structure that still overflows the stack, a throwing getter, a proxy: invalid, not fatal.
    return invalid(candidate, `could not be validated (${safely(() => (error instanceof Error ? error.message : String(error)), 'no reason given')})`);
  }
}

/** The replacement for a message or fact outside the contract: which one, and where it failed. */
export function invalidReportMessage(what: string, problem: string): ErrorMessage {
  return { type: 'error', code: AGENT_RUN_ERROR_CODES.agentMessageInvalid, message: cap(`dropped ${what} outside the contract: ${problem}`) };
}

/** The first issue of a failed parse, as `path: reason`. */
export function describeFirstIssue(error: { readonly issues: ReadonlyArray<{ readonly path: readonly PropertyKey[]; readonly message: string }> }): string {
  const [issue] = error.issues;
  if (!issue) return 'no reason given';
  const path = issue.path.map(String).join('.');
  return `${path === '' ? '(message)' : path}: ${issue.message}`;
}

function verdictOf(candidate: unknown): AgentMessageVerdict {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return invalid(candidate, 'not an object');
  const record = candidate as Record<string, unknown>;
  if (record['metadata'] !== undefined) {
    const problem = jsonProblemOf(record['metadata'], 'metadata', { undefinedMembers: true });
    if (problem) return invalid(candidate, problem);
  }
  // A notice is the daemon's own word in the timeline: one coming from an adapter would pass a
  // CLI's output off as the daemon's.
  if (record['type'] === 'notice') return invalid(candidate, 'type: a notice is the daemon’s, not an adapter’s');
  if (record['type'] !== 'tool-use') {
    const parsed = agentMessageSchema.safeParse(record);
    return parsed.success ? { kind: 'valid', message: parsed.data } : invalid(candidate, describeFirstIssue(parsed.error));
  }
  // The walk checks the input as JSON, as the schema would, at a fraction of the cost of its
  // per-value union; the schema then checks the rest with the input set aside.
  const repair = jsonProblemOf(record['input'], 'input', { undefinedMembers: false });
  const parsed = agentMessageSchema.safeParse({ ...record, input: null });
  if (!parsed.success) return invalid(candidate, describeFirstIssue(parsed.error));
  const message = { ...parsed.data, input: repair ? { unreadable: repair } : record['input'] } as AgentMessage;
  return repair ? { kind: 'repaired', message, problem: repair } : { kind: 'valid', message };
}

function invalid(candidate: unknown, problem: string): AgentMessageVerdict {
  return { kind: 'invalid', replacement: invalidReportMessage(`${describeType(candidate)} message`, problem), problem };
}

const UNREADABLE = Symbol('unreadable');

function describeType(candidate: unknown): string {
  const type = safely(() => (typeof candidate === 'object' && candidate !== null ? (candidate as { type?: unknown }).type : undefined), UNREADABLE);
  if (type === UNREADABLE) return 'an unreadable';
  if (typeof type === 'string' && (AGENT_MESSAGE_TYPES as readonly string[]).includes(type)) return `${type === 'error' ? 'an' : 'a'} ${type}`;
  if (type === undefined) return 'an untyped';
  const shown = typeof type === 'string' ? JSON.stringify(type) : typeof type;
  return `an unknown-type (${shown.length > MAX_TYPE_CHARACTERS ? `${shown.slice(0, MAX_TYPE_CHARACTERS)}…` : shown})`;
}

/**
 * Why a value cannot travel as JSON (too deep, a cycle, NaN, a bigint, a class instance), or
 * `undefined`. Iterative, so depth costs no stack. `undefinedMembers`: an object member may be
 * `undefined` (serializing drops it), as the metadata bag allows but a tool input does not.
 */
function jsonProblemOf(root: unknown, field: string, options: { readonly undefinedMembers: boolean }): string | undefined {
  if (root === undefined) return `${field} is missing`;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    switch (typeof value) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (Number.isFinite(value)) continue;
        return `${field} holds ${String(value)}, which JSON cannot carry`;
      case 'undefined':
        if (options.undefinedMembers) continue;
        return `${field} holds an undefined value, which JSON cannot carry`;
      case 'object': {
        if (value === null) continue;
        // A cycle never ends, so it is caught here too.
        if (depth >= MAX_JSON_DEPTH) return `${field} is nested deeper than ${MAX_JSON_DEPTH} levels`;
        if (Array.isArray(value)) {
          for (const item of value as unknown[]) {
            values.push(item);
            depths.push(depth + 1);
          }
          continue;
        }
        const prototype = Object.getPrototypeOf(value) as unknown;
        if (prototype !== Object.prototype && prototype !== null) return `${field} holds an object that is not plain JSON`;
        for (const key in value) {
          values.push((value as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
        continue;
      }
      default:
        return `${field} holds a ${typeof value}, which JSON cannot carry`;
    }
  }
  return undefined;
}

/** What `read` returns, or `fallback` if reading throws (a getter, a proxy, an object without `toString`). */
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function cap(text: string): string {
  return text.length > MAX_PROBLEM_CHARACTERS ? `${text.slice(0, MAX_PROBLEM_CHARACTERS)}…` : text;
}
