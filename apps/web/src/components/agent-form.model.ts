import { ENVIRONMENT_KEY_PATTERN, MASKED_VALUE, MAX_CONCURRENT_TASKS_LIMIT, isBlockedEnvironmentKey, type Agent, type AgentInput } from '../api/agents.api';

/**
 * One environment variable as the form edits it. A stored variable's value is never shown (the API
 * masks it): untouched it is sent back masked, which keeps the stored value; typed over, the new
 * value is sent. Its key is fixed: a renamed secret would be a new variable with no value.
 */
export interface EnvironmentRow {
  readonly rowId: string;
  readonly key: string;
  readonly value: string;
  readonly stored: boolean;
  readonly changed: boolean;
}

/** The agent as the form holds it: text as typed, checked and converted on save. */
export interface AgentDraft {
  readonly name: string;
  readonly instructions: string;
  readonly runtimeId: string;
  readonly model: string;
  readonly thinkingLevel: string;
  readonly skills: readonly string[];
  readonly mcpServersJson: string;
  readonly extraArgsText: string;
  readonly environment: readonly EnvironmentRow[];
  readonly maxConcurrentTasks: string;
}

let nextRowNumber = 0;

export function newEnvironmentRow(): EnvironmentRow {
  nextRowNumber += 1;
  return { rowId: `environment-row-${nextRowNumber}`, key: '', value: '', stored: false, changed: true };
}

export function draftOf(agent: Agent | undefined): AgentDraft {
  if (!agent) {
    return { name: '', instructions: '', runtimeId: '', model: '', thinkingLevel: '', skills: [], mcpServersJson: '{}', extraArgsText: '', environment: [], maxConcurrentTasks: '1' };
  }
  return {
    name: agent.name,
    instructions: agent.instructions,
    runtimeId: agent.runtimeId,
    model: agent.model ?? '',
    thinkingLevel: agent.thinkingLevel ?? '',
    skills: [...agent.skills],
    mcpServersJson: JSON.stringify(agent.mcpServers, null, 2),
    extraArgsText: agent.extraArgs.join('\n'),
    environment: Object.keys(agent.env).map((key) => ({ ...newEnvironmentRow(), key, stored: true, changed: false })),
    maxConcurrentTasks: String(agent.maxConcurrentTasks),
  };
}

/** The request body the draft makes, or every problem found before asking the API (which checks again). */
export function inputOf(draft: AgentDraft): { readonly input: AgentInput; readonly problems: readonly [] } | { readonly input?: undefined; readonly problems: readonly string[] } {
  const problems: string[] = [];
  if (draft.name.trim() === '') problems.push('Name: required.');
  if (draft.runtimeId === '') problems.push('Runtime: choose one.');
  const maxConcurrentTasks = Number(draft.maxConcurrentTasks);
  if (!Number.isInteger(maxConcurrentTasks) || maxConcurrentTasks < 1 || maxConcurrentTasks > MAX_CONCURRENT_TASKS_LIMIT) {
    problems.push(`Max concurrent tasks: a whole number from 1 to ${MAX_CONCURRENT_TASKS_LIMIT}.`);
  }
  const mcpServers = parseMcpServers(draft.mcpServersJson, problems);
  const env = environmentOf(draft.environment, problems);
  if (problems.length > 0) return { problems };
  return {
    problems: [],
    input: {
      name: draft.name.trim(),
      runtimeId: draft.runtimeId,
      instructions: draft.instructions,
      model: draft.model.trim() === '' ? null : draft.model.trim(),
      thinkingLevel: draft.thinkingLevel === '' ? null : draft.thinkingLevel,
      env,
      extraArgs: draft.extraArgsText.split('\n').filter((line) => line.trim() !== ''),
      mcpServers: mcpServers ?? {},
      skills: [...draft.skills],
      maxConcurrentTasks,
    },
  };
}

function parseMcpServers(text: string, problems: string[]): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`MCP servers: not JSON (${error instanceof Error ? error.message : String(error)}).`);
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push('MCP servers: a JSON object of servers by name, e.g. {"files": {"command": "mcp-files"}}.');
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

function environmentOf(rows: readonly EnvironmentRow[], problems: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '' && row.value === '' && !row.stored) continue;
    if (!ENVIRONMENT_KEY_PATTERN.test(key)) problems.push(`Environment: "${key}" is not a variable name (letters, digits and _, not starting with a digit).`);
    else if (isBlockedEnvironmentKey(key)) problems.push(`Environment: ${key} is set by the daemon itself and cannot be given.`);
    else if (Object.hasOwn(env, key)) problems.push(`Environment: ${key} is given twice.`);
    env[key] = row.stored && !row.changed ? MASKED_VALUE : row.value;
  }
  return env;
}
