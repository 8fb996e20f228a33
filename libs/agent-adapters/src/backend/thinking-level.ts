import type { AgentMessage } from '@switchyard/contracts';

/**
 * The neutral thinking levels an agent may ask for. The gateway stores any short string (agents
 * created before these levels existed keep theirs); a value outside this list is not delivered and
 * the run says so in its timeline.
 */
export const THINKING_LEVELS = ['off', 'low', 'medium', 'high', 'max'] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export function isThinkingLevel(value: string): value is ThinkingLevel {
  return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** Whether the agent asks for thinking at all: a known level other than `off`. */
export function asksForThinking(thinkingLevel: string | null | undefined): boolean {
  const level = thinkingLevel?.trim().toLowerCase();
  return level !== undefined && isThinkingLevel(level) && level !== 'off';
}

/** How a CLI takes a level: extra arguments after the adapter's own, and variables for its env. */
export interface ThinkingDelivery {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /**
   * A settings file for this run alone, for a CLI that takes the setting only from settings: its
   * content, and the variable that points the CLI at it (written by `writeThinkingSettings`).
   */
  readonly settingsFile?: { readonly variable: string; readonly content: Readonly<Record<string, unknown>> };
}

/** A family's answer for one level: delivered, or why the CLI cannot take it. */
export type ThinkingMapping = { readonly delivery: ThinkingDelivery } | { readonly unsupported: string };

/** One per family (or identity), pure: `<family>/<family>-thinking.ts`. */
export type ThinkingMapper = (level: ThinkingLevel) => ThinkingMapping;

export const NO_THINKING_DELIVERY: ThinkingDelivery = { args: [], env: {} };

/** What a run applies for its agent's level, and the warning its timeline carries when it cannot. */
export interface ResolvedThinking extends ThinkingDelivery {
  readonly notes: readonly AgentMessage[];
}

/**
 * Maps the agent's level through the family's mapper. No level: nothing. An unknown level or one
 * the CLI cannot take: nothing applied, one `log` warning for the timeline.
 */
export function resolveThinking(requested: string | undefined, mapper: ThinkingMapper): ResolvedThinking {
  const level = requested?.trim().toLowerCase();
  if (!level) return { ...NO_THINKING_DELIVERY, notes: [] };
  if (!isThinkingLevel(level)) {
    return { ...NO_THINKING_DELIVERY, notes: [thinkingWarning(`thinking level "${level}" is not one of ${THINKING_LEVELS.join(', ')}; the CLI runs with its default`)] };
  }
  const mapping = mapper(level);
  if ('unsupported' in mapping) return { ...NO_THINKING_DELIVERY, notes: [thinkingWarning(`thinking level "${level}" not applied: ${mapping.unsupported}`)] };
  return { ...mapping.delivery, notes: [] };
}

/** For families whose CLI takes no thinking setting at all. */
export function unsupportedThinking(reason: string): ThinkingMapper {
  return () => ({ unsupported: reason });
}

function thinkingWarning(text: string): AgentMessage {
  return { type: 'log', level: 'warn', text };
}
