/**
 * Markers a test writes into its prompt to steer the mock model:
 * - `[[scenario:text]]` (alias `recall`): answer with text only, even when a shell tool is offered.
 * - `[[scenario:tool-write-file <path> <content>]]`: call the shell tool with a command that writes
 *   `<content>` (the rest of the marker, spaces allowed) to `<path>`.
 * - `[[scenario:tool-command <command>]]`: call the shell tool with this exact command.
 * - `[[scenario:slow <milliseconds>]]`: stream text slowly for about that long (cancel tests).
 * - `[[scenario:error <status>]]`: fail with that HTTP status and a provider-shaped error body
 *   in the provider's own wording (429 also carries `retry-after`).
 * - `[[scenario:context-overflow]]`: fail as the provider does when the prompt exceeds the context.
 * - `[[scenario:reset]]`: destroy the connection without an answer.
 * - `[[scenario:error-once <status|context-overflow|reset> <key>]]`: the first request whose prompt
 *   carries this marker with that key fails so; later ones are answered as if it were absent
 *   (a retried task then completes).
 * - `[[scenario:remember <word>]]` and `[[secret:<word>]]`: a word that later answers repeat when
 *   the marker sits in an earlier turn of the conversation (resume proof).
 * - `[[scenario:mcp-tool <tool-name-fragment> <json object>]]`: call the offered tool whose name
 *   contains the fragment (each CLI prefixes MCP tools its own way) with those arguments.
 */
export type Scenario =
  | { readonly name: 'text' }
  | { readonly name: 'tool-write-file'; readonly path: string; readonly content: string }
  | { readonly name: 'tool-command'; readonly command: string }
  | { readonly name: 'slow'; readonly milliseconds: number }
  | { readonly name: 'error'; readonly status: number }
  | { readonly name: 'context-overflow' }
  | { readonly name: 'reset' }
  | { readonly name: 'error-once'; readonly failure: ProviderFailure; readonly key: string }
  | { readonly name: 'remember'; readonly word: string }
  | { readonly name: 'mcp-tool'; readonly toolNameFragment: string; readonly arguments: { readonly [key: string]: unknown } };

/** How a scripted provider failure shows: an HTTP status, a context overflow (a 400 in each provider's words), a cut connection. */
export type ProviderFailure = { readonly kind: 'status'; readonly status: number } | { readonly kind: 'context-overflow' } | { readonly kind: 'reset' };

export const DEFAULT_SLOW_MILLISECONDS = 30_000;
export const DEFAULT_ERROR_STATUS = 500;

const SCENARIO_MARKER = /\[\[scenario:([a-z-]+)(?:[ \t]+([\s\S]*?))?\]\]/gi;
const SECRET_MARKER = /\[\[secret:([^\]\s]+)\]\]/gi;

/** Every well-formed scenario marker in the text, in order; unknown names are ignored. */
export function parseScenarioMarkers(text: string): Scenario[] {
  const scenarios: Scenario[] = [];
  for (const match of text.matchAll(SCENARIO_MARKER)) {
    const scenario = toScenario((match[1] ?? '').toLowerCase(), (match[2] ?? '').trim());
    if (scenario !== undefined) scenarios.push(scenario);
  }
  return scenarios;
}

/** Words from `[[secret:<word>]]` and `[[scenario:remember <word>]]` markers, in order, without repeats. */
export function parseSecretWords(text: string): string[] {
  const words = [...text.matchAll(SECRET_MARKER)].map((match) => match[1] ?? '');
  for (const scenario of parseScenarioMarkers(text)) if (scenario.name === 'remember') words.push(scenario.word);
  return [...new Set(words.filter((word) => word !== ''))];
}

function toScenario(name: string, argumentsText: string): Scenario | undefined {
  switch (name) {
    case 'text':
    case 'recall':
      return { name: 'text' };
    case 'tool-write-file': {
      const path = argumentsText.split(/[ \t]+/)[0];
      return path ? { name: 'tool-write-file', path, content: argumentsText.slice(path.length).trim() } : undefined;
    }
    case 'tool-command':
      return argumentsText ? { name: 'tool-command', command: argumentsText } : undefined;
    case 'slow':
      return { name: 'slow', milliseconds: positiveIntegerOr(argumentsText, DEFAULT_SLOW_MILLISECONDS) };
    case 'error':
      return { name: 'error', status: errorStatusOf(argumentsText) };
    case 'context-overflow':
      return { name: 'context-overflow' };
    case 'reset':
      return { name: 'reset' };
    case 'error-once':
      return errorOnceScenario(argumentsText);
    case 'remember': {
      const word = argumentsText.split(/\s+/)[0];
      return word ? { name: 'remember', word } : undefined;
    }
    case 'mcp-tool':
      return mcpToolScenario(argumentsText);
    default:
      return undefined;
  }
}

/** `<fragment> <json object>`; a marker without a fragment or with arguments that are not a JSON object is ignored. */
function mcpToolScenario(argumentsText: string): Scenario | undefined {
  const toolNameFragment = argumentsText.split(/[ \t]+/)[0];
  if (!toolNameFragment) return undefined;
  const json = argumentsText.slice(toolNameFragment.length).trim() || '{}';
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    return { name: 'mcp-tool', toolNameFragment, arguments: parsed as { [key: string]: unknown } };
  } catch {
    return undefined;
  }
}

/** `<status|context-overflow|reset> <key>`; without a key the marker is ignored (it could never stop failing). */
function errorOnceScenario(argumentsText: string): Scenario | undefined {
  const [failureText = '', key] = argumentsText.split(/[ \t]+/);
  if (!key) return undefined;
  const failure: ProviderFailure =
    failureText === 'context-overflow' || failureText === 'reset' ? { kind: failureText } : { kind: 'status', status: errorStatusOf(failureText) };
  return { name: 'error-once', failure, key };
}

function errorStatusOf(text: string): number {
  const status = positiveIntegerOr(text, DEFAULT_ERROR_STATUS);
  return status >= 400 && status <= 599 ? status : DEFAULT_ERROR_STATUS;
}

function positiveIntegerOr(text: string, fallback: number): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
