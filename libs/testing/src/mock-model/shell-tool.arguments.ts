import type { JsonSchema, ToolOffer } from './conversation.types';
import { fillJsonSchema, isSchema, schemaProperties, schemaTypes } from './json-schema.filler';

/** Names the CLIs give their shell tool, best first (Claude Code, Codex, Gemini/Qwen, OpenCode/Pi). */
const WELL_KNOWN_SHELL_TOOL_NAMES = ['Bash', 'bash', 'shell', 'shell_command', 'exec_command', 'local_shell', 'run_shell_command'];
const SHELL_LIKE_NAME = /shell|bash|exec|command|terminal/i;
const COMMAND_FIELD_NAMES = ['command', 'cmd'] as const;

export type CommandField = { readonly name: string; readonly form: 'string' | 'argv' };

/**
 * The offered tool the mock calls to run a command: the Responses API's built-in `local_shell`, or
 * any function tool with a `command`/`cmd` parameter of type string or string array. A known shell
 * name wins over other tools that happen to take a `command`.
 */
export function findShellTool(tools: readonly ToolOffer[]): ToolOffer | undefined {
  const candidates = tools.filter((tool) => tool.kind === 'local-shell' || commandField(tool.parameters) !== undefined);
  const rank = (tool: ToolOffer): number => {
    const known = WELL_KNOWN_SHELL_TOOL_NAMES.indexOf(tool.name);
    if (known >= 0) return known;
    return SHELL_LIKE_NAME.test(tool.name) ? WELL_KNOWN_SHELL_TOOL_NAMES.length : WELL_KNOWN_SHELL_TOOL_NAMES.length + 1;
  };
  return [...candidates].sort((left, right) => rank(left) - rank(right))[0];
}

/** The parameter that carries the command, and whether it wants one string or an argv array. */
export function commandField(parameters: JsonSchema | undefined): CommandField | undefined {
  const properties = schemaProperties(parameters);
  for (const name of COMMAND_FIELD_NAMES) {
    const property = properties[name];
    if (!isSchema(property)) continue;
    const types = propertyTypes(property);
    if (types.includes('string')) return { name, form: 'string' };
    if (types.includes('array')) return { name, form: 'argv' };
  }
  return undefined;
}

/**
 * Arguments for one call of the shell tool: the command in the form the schema asks for (argv as
 * `bash -lc <command>`), plus every other required parameter filled from its schema.
 */
export function buildShellArguments(tool: ToolOffer, command: string): { [key: string]: unknown } {
  if (tool.kind === 'local-shell') return { command: shellArgv(command) };
  const filled = fillJsonSchema(tool.parameters, { onlyRequired: true });
  const base = isSchema(filled) ? { ...filled } : {};
  const field = commandField(tool.parameters) ?? { name: 'command', form: 'string' };
  return { ...base, [field.name]: field.form === 'string' ? command : shellArgv(command) };
}

export function shellArgv(command: string): string[] {
  return ['bash', '-lc', command];
}

/** Quotes a value for a POSIX shell, single quotes throughout. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function writeFileCommand(path: string, content: string): string {
  return `printf '%s' ${shellQuote(content)} > ${shellQuote(path)}`;
}

function propertyTypes(property: JsonSchema): string[] {
  const direct = schemaTypes(property);
  if (direct.length > 0) return direct;
  // `anyOf: [{type: string}, {type: array}]` style unions.
  const alternatives = [property['anyOf'], property['oneOf']].flatMap((entry) => (Array.isArray(entry) ? entry.filter(isSchema) : []));
  return alternatives.flatMap((alternative) => schemaTypes(alternative));
}
