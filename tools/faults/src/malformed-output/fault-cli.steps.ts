import path from 'node:path';

/** The misbehaving CLI: run as `node fault-cli.js '<script>' ...adapter args (ignored)`. */
export const FAULT_CLI_PATH = path.join(__dirname, '__fixtures__', 'fault-cli.js');

/** One step of the fault CLI's script (see `__fixtures__/fault-cli.js`). */
export type FaultStep =
  /** A JSON value as one line (with the script's line ending and BOM); `pretty` spreads it over lines. */
  | { readonly frame: unknown; readonly pretty?: boolean }
  /** Raw text, written as it is. */
  | { readonly out: string }
  /** Raw bytes (invalid UTF-8, NUL). */
  | { readonly outBase64: string }
  | { readonly err: string }
  | { readonly repeat: { readonly text: string; readonly times: number } }
  /** `head` + `depth` nested arrays around `leaf` + `tail`, as one line. */
  | { readonly deep: { readonly depth: number; readonly head?: string; readonly leaf?: string; readonly tail?: string } }
  /** `head` + `bytes` of `x` streamed in 1 MiB pieces + `tail` + newline. */
  | { readonly bigLine: { readonly bytes: number; readonly head?: string; readonly tail?: string } }
  | { readonly stderrFlood: { readonly lines: number } }
  /** Text written one byte per write. */
  | { readonly trickle: { readonly text: string; readonly delayMs?: number } }
  /** Wait for a stdin frame whose `method` or `type` is this. */
  | { readonly await: string }
  /** Wait for a JSON-RPC request of this method and answer it. */
  | { readonly reply: string; readonly result?: unknown }
  | { readonly reply: string; readonly error: { readonly code: number; readonly message: string } }
  | { readonly sleep: number }
  | { readonly ignoreSigterm: true }
  /** Close fd 1 and carry on (a CLI that hangs up on us but stays alive). */
  | { readonly closeStdout: true }
  | { readonly spawnGrandchild: { readonly holdStdout: boolean } }
  | { readonly hang: true }
  | { readonly signal: NodeJS.Signals }
  | { readonly exit: number };

export interface FaultScriptOptions {
  /** Line ending of `frame` steps and replies (default `\n`). */
  readonly eol?: '\n' | '\r\n';
  /** A UTF-8 byte order mark in front of every `frame` line. */
  readonly bom?: boolean;
}

export interface FaultScript {
  readonly options?: FaultScriptOptions;
  readonly steps: readonly FaultStep[];
}

/** The script as the fault CLI's first argument. */
export const faultScriptArgument = (script: FaultScript): string => JSON.stringify(script);

/** Raw bytes as a step. */
export const bytesStep = (bytes: readonly number[]): FaultStep => ({ outBase64: Buffer.from(bytes).toString('base64') });
