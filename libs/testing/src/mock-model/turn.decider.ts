import type { ConversationTurn, NormalizedConversation, TurnDecision } from './conversation.types';
import { fillJsonSchema, isSchema } from './json-schema.filler';
import { decideProviderFailure } from './provider-failure.decision';
import { nextMcpToolStep } from './mcp-tool.step';
import { parseScenarioMarkers, parseSecretWords, type Scenario } from './scenario-marker.parser';
import { buildShellArguments, findShellTool, writeFileCommand } from './shell-tool.arguments';

export const DEFAULT_TOOL_COMMAND = 'echo mock-model-tool-call';
export const DEFAULT_TEXT_REPLY = 'Mock model reply.';
export const FINAL_TEXT_PREFIX = 'Mock model final answer.';
export const NO_MATCHING_TOOL_PREFIX = 'Mock model: no offered tool matches';
const TOOL_OUTPUT_EXCERPT_LENGTH = 200;
const SLOW_DELTA_INTERVAL_MILLISECONDS = 100;
const WORDS_PER_DELTA = 3;

/**
 * Decides one model turn from the request alone (agent-clis.md "General"):
 * 1. a request that demands JSON (a side call such as Gemini CLI's router) gets a schema-valid object,
 *    and one that forces a call of a non-shell tool gets that call with schema-filled arguments;
 * 2. `error` / `context-overflow` / `reset` / `error-once` (until its key is spent) / `slow` markers
 *    in the latest human prompt fail or stream slowly;
 * 3. an `mcp-tool` marker gets a call of the tool its name fragment points at (loaded through
 *    `tool_search` first where the CLI defers it), until it was called;
 * 4. a tool result after the latest human prompt gets the final text;
 * 5. a `text` marker, or no shell tool on offer, gets short text;
 * 6. otherwise ONE call of the shell tool, with a command from the marker or a harmless default.
 * Text answers repeat secrets from earlier turns, so a resumed session can prove what it saw.
 */
export function decideTurn(conversation: NormalizedConversation, spentOnceKeys: ReadonlySet<string> = new Set()): TurnDecision {
  const latestHumanIndex = findLatestHumanPromptIndex(conversation.turns);
  const prompt = latestHumanIndex >= 0 ? humanText(conversation.turns[latestHumanIndex]) : '';
  const scenarios = parseScenarioMarkers(prompt);
  const find = <Name extends Scenario['name']>(name: Name) =>
    scenarios.find((scenario): scenario is Extract<Scenario, { name: Name }> => scenario.name === name);
  const secrets = earlierSecrets(conversation.turns, latestHumanIndex);

  if (conversation.jsonDemand !== undefined) {
    const value = fillJsonSchema(conversation.jsonDemand.schema) ?? {};
    return { kind: 'json', value, text: JSON.stringify(value) };
  }
  const forced = conversation.tools.find((tool) => tool.name === conversation.forcedToolName);
  const shellTool = findShellTool(conversation.tools);
  // A forced call of a tool that is not the shell is a side call asking for JSON through a tool (e.g. `respond_in_schema`).
  if (forced !== undefined && forced !== shellTool) {
    const value = fillJsonSchema(forced.parameters);
    return { kind: 'tool-call', tool: forced, arguments: isSchema(value) ? value : {}, command: undefined };
  }
  const failure = decideProviderFailure(scenarios, spentOnceKeys);
  if (failure) return failure;
  const slow = find('slow');
  if (slow) return slowText(slow.milliseconds);

  const mcpTool = find('mcp-tool');
  const mcpStep = mcpTool ? nextMcpToolStep({ conversation, scenario: mcpTool, latestHumanIndex }) : undefined;
  if (mcpStep?.kind === 'call') return { kind: 'tool-call', tool: mcpStep.tool, arguments: mcpStep.arguments, command: undefined };
  if (mcpTool && mcpStep?.kind === 'missing') {
    // Said in the answer, so a test that finds no tool call can tell what the CLI offered instead.
    return textDecision(`${NO_MATCHING_TOOL_PREFIX} "${mcpTool.toolNameFragment}"; offered: ${conversation.tools.map((offer) => offer.name).join(', ')}`);
  }

  const toolResults = conversation.turns.slice(latestHumanIndex + 1).flatMap((turn) => turn.parts.filter((part) => part.kind === 'tool-result'));
  if (toolResults.length > 0) {
    const output = toolResults.map((part) => (part.kind === 'tool-result' ? part.output : '')).join('\n').trim();
    const excerpt = output.length > TOOL_OUTPUT_EXCERPT_LENGTH ? `${output.slice(0, TOOL_OUTPUT_EXCERPT_LENGTH)}…` : output;
    return textDecision(`${FINAL_TEXT_PREFIX} Tool output: ${excerpt || '(empty)'}${secretsSentence(secrets)}`);
  }

  const remember = find('remember');
  const acknowledgement = remember ? ` I will remember ${remember.word}.` : '';
  if (find('text') || shellTool === undefined) return textDecision(`${DEFAULT_TEXT_REPLY}${acknowledgement}${secretsSentence(secrets)}`);

  const writeFile = find('tool-write-file');
  const command = writeFile ? writeFileCommand(writeFile.path, writeFile.content) : (find('tool-command')?.command ?? DEFAULT_TOOL_COMMAND);
  return { kind: 'tool-call', tool: shellTool, arguments: buildShellArguments(shellTool, command), command };
}

/**
 * The last user turn a human wrote: it has text of its own and carries no tool result. Text that
 * is wholly one tag (`<system-reminder>…</system-reminder>`, `<environment_context>…`) is context
 * the CLI injected, not the prompt.
 */
export function findLatestHumanPromptIndex(turns: readonly ConversationTurn[]): number {
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const turn = turns[index];
    if (turn === undefined || turn.role !== 'user') continue;
    if (turn.parts.some((part) => part.kind === 'tool-result')) continue;
    if (humanText(turn) !== '') return index;
  }
  return -1;
}

/** The turn's own text, without the context blocks CLIs inject. */
export function humanText(turn: ConversationTurn | undefined): string {
  if (turn === undefined) return '';
  return turn.parts
    .flatMap((part) => (part.kind === 'text' && !isInjectedContext(part.text) ? [part.text.trim()] : []))
    .filter((text) => text !== '')
    .join('\n');
}

export function isInjectedContext(text: string): boolean {
  const trimmed = text.trim();
  const opening = /^<([A-Za-z][\w-]*)(?:\s[^>]*)?>/.exec(trimmed);
  return opening !== null && trimmed.endsWith(`</${opening[1]}>`);
}

/** Splits text into streaming deltas of a few words each; joined they give the text back. */
export function splitIntoDeltas(text: string, wordsPerDelta = WORDS_PER_DELTA): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const deltas: string[] = [];
  for (let index = 0; index < words.length; index += wordsPerDelta) deltas.push(words.slice(index, index + wordsPerDelta).join(''));
  return deltas.length > 0 ? deltas : [''];
}

function textDecision(text: string): TurnDecision {
  return { kind: 'text', text, deltas: splitIntoDeltas(text), deltaIntervalMilliseconds: 0 };
}

function slowText(milliseconds: number): TurnDecision {
  const count = Math.max(1, Math.round(milliseconds / SLOW_DELTA_INTERVAL_MILLISECONDS));
  const deltas = Array.from({ length: count }, (_, index) => `slow ${index + 1} `);
  return { kind: 'text', text: deltas.join(''), deltas, deltaIntervalMilliseconds: milliseconds / count };
}

function earlierSecrets(turns: readonly ConversationTurn[], latestHumanIndex: number): string[] {
  const earlier = turns.slice(0, Math.max(0, latestHumanIndex)).filter((turn) => turn.role === 'user');
  return [...new Set(earlier.flatMap((turn) => parseSecretWords(humanText(turn))))];
}

function secretsSentence(secrets: readonly string[]): string {
  return secrets.length > 0 ? ` Remembered from earlier turns: ${secrets.join(', ')}.` : '';
}
