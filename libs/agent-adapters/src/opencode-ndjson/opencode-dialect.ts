/**
 * The CLIs that speak `run --format json` (OpenCode and its forks) differ in how they take the
 * prompt, where they keep their config and which version rules apply; the event stream is the
 * same. A dialect names those differences so one backend and one translator serve all of them.
 */
export const OPENCODE_DIALECT_IDS = ['opencode', 'deveco', 'codearts'] as const;
export type OpenCodeDialectId = (typeof OPENCODE_DIALECT_IDS)[number];

export interface OpenCodeDialect {
  readonly id: OpenCodeDialectId;
  /** The default command name on PATH. */
  readonly command: string;
  /**
   * `stdin`: the prompt is written to stdin, then stdin is closed (OpenCode reads it to EOF).
   * `argv`: the prompt goes on the command line after `--`, stdin is closed at once.
   */
  readonly promptDelivery: 'stdin' | 'argv';
  /** The folder under `$XDG_CONFIG_HOME` and the global config file in it. */
  readonly configDirectoryName: string;
  readonly configFileName: string;
  /** Prefix of the CLI's own environment switches (`<PREFIX>_DISABLE_AUTOUPDATE`, ...). */
  readonly environmentPrefix: string;
  /** Whether the version's `run` accepts `--dir`; false for an unknown version. */
  supportsDirectoryFlag(version: ParsedVersion | undefined): boolean;
  /** Whether `step_finish` reports reasoning tokens apart from `output`. */
  separatesReasoningTokens(version: ParsedVersion | undefined): boolean;
}

export interface ParsedVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const VERSION = /(\d+)\.(\d+)\.(\d+)/;

/** Reads `1.18.33`, `v1.18.33` or `opencode 1.18.33`; anything else (a custom command) is unknown. */
export function parseCliVersion(raw: string | undefined): ParsedVersion | undefined {
  const match = raw === undefined ? null : VERSION.exec(raw.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

const atLeast = (version: ParsedVersion, major: number, minor: number, patch: number): boolean =>
  version.major !== major ? version.major > major : version.minor !== minor ? version.minor > minor : version.patch >= patch;

/**
 * OpenCode `run --dir` exists from 1.2 to the end of 1.x: added by anomalyco/opencode#12443
 * (Feb 2026); `opencode run --help` of the npm builds shows it in 1.2.1 and not in 1.1.65 (1.2.0
 * was not available to check, so it gets the safe default); OpenCode 2 removed the flag and exits
 * 1 with `Unrecognized flag: --dir` (multica-ai/multica#8586, tested with 2.0.10). The safe
 * default, process cwd plus `PWD` (which `run` prefers over the cwd), works on every version.
 */
const openCodeSupportsDirectoryFlag = (version: ParsedVersion | undefined): boolean =>
  version !== undefined && version.major === 1 && atLeast(version, 1, 2, 1);

/**
 * OpenCode 1.3.16 stopped counting reasoning in `tokens.output` (anomalyco/opencode#21047, as
 * noted in multica's opencode backend). Unknown versions keep `output` alone: an undercount rather
 * than a double count.
 */
const openCodeSeparatesReasoning = (version: ParsedVersion | undefined): boolean =>
  version !== undefined && version.major === 1 && atLeast(version, 1, 3, 16);

export const OPENCODE_DIALECTS: Readonly<Record<OpenCodeDialectId, OpenCodeDialect>> = {
  opencode: {
    id: 'opencode',
    command: 'opencode',
    promptDelivery: 'stdin',
    configDirectoryName: 'opencode',
    configFileName: 'opencode.json',
    environmentPrefix: 'OPENCODE',
    supportsDirectoryFlag: openCodeSupportsDirectoryFlag,
    separatesReasoningTokens: openCodeSeparatesReasoning,
  },
  /**
   * DevEco Code (`@deveco/deveco-code`, gitcode.com/openharmony-sig/deveco-code), Huawei's
   * HarmonyOS OpenCode fork: the same `run --format json` flags and events, the prompt as a
   * positional argument (multica `deveco.go`), config in `~/.config/deveco/deveco.json` and
   * `DEVECO_`-prefixed switches (cc-switch#7496, multica#4916). Its version numbers are its own,
   * so OpenCode's version rules do not apply: no `--dir`, reasoning counted as reported.
   */
  deveco: {
    id: 'deveco',
    command: 'deveco',
    promptDelivery: 'argv',
    configDirectoryName: 'deveco',
    configFileName: 'deveco.json',
    environmentPrefix: 'DEVECO',
    supportsDirectoryFlag: () => false,
    separatesReasoningTokens: () => false,
  },
  /**
   * Huawei CodeArts Agent CLI (`codearts`): OpenCode-based per its user guide (`codearts run
   * [message]`, `models`, `agent`, `mcp`, `stats` commands, Build/Plan agents, JSON/JSONC config),
   * which documents the prompt as positional words. `--format json`, `--session` and the event
   * shapes are not documented publicly; they are assumed to be OpenCode's. The config location is
   * likewise assumed (`~/.config/codearts/codearts.json`, `CODEARTS_` switches).
   */
  codearts: {
    id: 'codearts',
    command: 'codearts',
    promptDelivery: 'argv',
    configDirectoryName: 'codearts',
    configFileName: 'codearts.json',
    environmentPrefix: 'CODEARTS',
    supportsDirectoryFlag: () => false,
    separatesReasoningTokens: () => false,
  },
};

/**
 * `run` joins its positional words with single spaces and wraps any word that contains a space in
 * double quotes. Splitting on single spaces yields words without spaces, so the joined message is
 * the prompt exactly (newlines, repeated spaces and quotes included); `--` keeps words such as
 * `--model` from being read as flags.
 */
export function promptAsArguments(prompt: string): string[] {
  return ['--', ...prompt.split(' ')];
}
