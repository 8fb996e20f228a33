/**
 * Markers a test writes into its prompt to steer the mock model:
 * - `[[scenario:text]]` (alias `recall`): answer with text only, even when a shell tool is offered.
 * - `[[scenario:tool-write-file <path> <content>]]`: call the shell tool with a command that writes
 *   `<content>` (the rest of the marker, spaces allowed) to `<path>`.
 * - `[[scenario:tool-command <command>]]`: call the shell tool with this exact command.
 * - `[[scenario:slow <milliseconds>]]`: stream text slowly for about that long (cancel tests).
 * - `[[scenario:error <status>]]`: fail with that HTTP status and a provider-shaped error body.
 * - `[[scenario:remember <word>]]` and `[[secret:<word>]]`: a word that later answers repeat when
 *   the marker sits in an earlier turn of the conversation (resume proof).
 */
export type Scenario =
  | { readonly name: 'text' }
  | { readonly name: 'tool-write-file'; readonly path: string; readonly content: string }
  | { readonly name: 'tool-command'; readonly command: string }
  | { readonly name: 'slow'; readonly milliseconds: number }
  | { readonly name: 'error'; readonly status: number }
  | { readonly name: 'remember'; readonly word: string };

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
    case 'error': {
      const status = positiveIntegerOr(argumentsText, DEFAULT_ERROR_STATUS);
      return { name: 'error', status: status >= 400 && status <= 599 ? status : DEFAULT_ERROR_STATUS };
    }
    case 'remember': {
      const word = argumentsText.split(/\s+/)[0];
      return word ? { name: 'remember', word } : undefined;
    }
    default:
      return undefined;
  }
}

function positiveIntegerOr(text: string, fallback: number): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
