import { access } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

export interface OpenCodeStoreOptions {
  readonly executablePath: string;
  /** The run's XDG directories and switches (`writeOpenCodeHome(...).env`), plus HOME and PATH. */
  readonly environment: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export type OpenCodeStoreState =
  | { readonly state: 'present' }
  | { readonly state: 'created' }
  /** The CLI could not create it; the run goes ahead and reports the CLI's own error if any. */
  | { readonly state: 'failed'; readonly detail: string };

/** First starts in flight, by database file: later callers wait for the same one. */
const creations = new Map<string, Promise<OpenCodeStoreState>>();

/**
 * OpenCode (1.18) creates and migrates its SQLite store (`$XDG_DATA_HOME/opencode/opencode.db`) on
 * its first start, and two first starts on one store race: one fails with `Failed query: CREATE
 * TABLE ...` and exit 1. Runs of one runtime share the store (their sessions live there), so the
 * first start is made once, alone, with a command that only opens the store (`session list`,
 * about a second); every run that asks meanwhile waits for it.
 */
export async function ensureOpenCodeStore(options: OpenCodeStoreOptions): Promise<OpenCodeStoreState> {
  const dataHome = options.environment['XDG_DATA_HOME'];
  if (!dataHome) return { state: 'failed', detail: 'no XDG_DATA_HOME in the run environment' };
  const database = path.join(dataHome, 'opencode', 'opencode.db');
  if (await exists(database)) return { state: 'present' };
  let creation = creations.get(database);
  if (!creation) {
    creation = createStore(options, database).finally(() => creations.delete(database));
    creations.set(database, creation);
  }
  return creation;
}

async function createStore(options: OpenCodeStoreOptions, database: string): Promise<OpenCodeStoreState> {
  const result = await execa(options.executablePath, ['session', 'list'], {
    env: { ...options.environment },
    extendEnv: false,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? 60_000,
    forceKillAfterDelay: 1_000,
    reject: false,
    all: true,
  });
  if (await exists(database)) return { state: 'created' };
  const output = String(result.all ?? '');
  return { state: 'failed', detail: `${path.basename(options.executablePath)} session list: ${result.timedOut ? 'timed out' : `exit ${String(result.exitCode)}`}: ${output.slice(-500)}` };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
