import type { ConversationTurn, NormalizedConversation, ToolOffer } from './conversation.types';
import { fillJsonSchema, isSchema } from './json-schema.filler';
import { findToolByNameFragment } from './offered-tool.finder';
import type { Scenario } from './scenario-marker.parser';

/** The tool some CLIs (Qwen Code) hide deferred tools behind: the model loads them by name first. */
export const TOOL_SEARCH_NAME = 'tool_search';
/** Claude Code's tool for MCP servers still connecting when the turn began: the model waits with it. */
export const WAIT_FOR_MCP_SERVERS_NAME = 'WaitForMcpServers';

export type McpToolStep =
  /** Call this tool with these arguments. */
  | { readonly kind: 'call'; readonly tool: ToolOffer; readonly arguments: { readonly [key: string]: unknown } }
  /** The tool was called after the prompt already: answer as for any tool result. */
  | { readonly kind: 'done' }
  /** No offered or deferred tool matches the fragment. */
  | { readonly kind: 'missing' };

/**
 * The next step of an `mcp-tool` scenario, as a model would take it: call the offered tool whose
 * name holds the fragment; when the CLI defers it behind `tool_search` (listing only its name in
 * the prompt), load it with `select:<name>` first and call it on the next turn; when its server is
 * still connecting (Claude Code offers `WaitForMcpServers` then), wait once; once it was called, the
 * step is done.
 */
export function nextMcpToolStep(options: {
  readonly conversation: NormalizedConversation;
  readonly scenario: Extract<Scenario, { name: 'mcp-tool' }>;
  readonly latestHumanIndex: number;
}): McpToolStep {
  const { conversation, scenario, latestHumanIndex } = options;
  const fragment = scenario.toolNameFragment;
  const callsSincePrompt = conversation.turns.slice(latestHumanIndex + 1).flatMap((turn) => turn.parts.flatMap((part) => (part.kind === 'tool-call' ? [part.name] : [])));
  if (callsSincePrompt.some((name) => name.includes(fragment) && name !== TOOL_SEARCH_NAME)) return { kind: 'done' };
  const offered = findToolByNameFragment(conversation.tools, fragment);
  if (offered) return { kind: 'call', tool: offered, arguments: scenario.arguments };
  const search = conversation.tools.find((tool) => tool.kind === 'function' && tool.name === TOOL_SEARCH_NAME);
  const deferredName = findDeferredToolName(conversation, fragment);
  if (search && deferredName && !callsSincePrompt.includes(TOOL_SEARCH_NAME)) {
    const filled = fillJsonSchema(search.parameters, { onlyRequired: true });
    return { kind: 'call', tool: search, arguments: { ...(isSchema(filled) ? filled : {}), query: `select:${deferredName}` } };
  }
  const waiter = conversation.tools.find((tool) => tool.kind === 'function' && tool.name === WAIT_FOR_MCP_SERVERS_NAME);
  if (waiter && !callsSincePrompt.includes(WAIT_FOR_MCP_SERVERS_NAME)) {
    const filled = fillJsonSchema(waiter.parameters, { onlyRequired: true });
    return { kind: 'call', tool: waiter, arguments: isSchema(filled) ? filled : {} };
  }
  return { kind: 'missing' };
}

/** A deferred tool's full name, as the CLI lists it in its system prompt or context text. */
function findDeferredToolName(conversation: NormalizedConversation, fragment: string): string | undefined {
  const texts = [...conversation.system, ...conversation.turns.flatMap((turn: ConversationTurn) => turn.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])))];
  const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`[A-Za-z0-9_.-]*${escaped}[A-Za-z0-9_.-]*`);
  for (const text of texts) {
    // The marker itself names the fragment too: skip it.
    const match = pattern.exec(text.replace(/\[\[scenario:[^\]]*\]\]/g, ''));
    if (match) return match[0];
  }
  return undefined;
}
