import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Owner only: a state directory holds tokens, keys, databases and agent output. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates a Switchyard state folder (a `SWITCHYARD_HOME`), owner-only, and marks it ignored by git
 * with a `.gitignore` of `*`: a home inside a clone holds tokens, keys and databases, and must
 * never be committed, whatever it is called. A folder that already exists keeps its mode: it may
 * be one the operator chose and shares; what we keep in it is made owner-only file by file.
 */
export function prepareStateDirectory(directory: string): string {
  const absolute = path.resolve(directory);
  mkdirSync(absolute, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const ignoreFile = path.join(absolute, '.gitignore');
  if (!existsSync(ignoreFile)) writeFileSync(ignoreFile, '# Switchyard state: never committed.\n*\n', { mode: PRIVATE_FILE_MODE });
  return absolute;
}

/**
 * A folder of our own inside a state directory (logs, the daemon's outbox): 0700, and the files
 * directly in it 0600, also when an earlier version created them with the default modes.
 */
export function preparePrivateDirectory(directory: string): string {
  const absolute = path.resolve(directory);
  mkdirSync(absolute, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(absolute, PRIVATE_DIRECTORY_MODE);
  for (const entry of readdirSync(absolute, { withFileTypes: true })) {
    if (entry.isFile()) chmodSync(path.join(absolute, entry.name), PRIVATE_FILE_MODE);
  }
  return absolute;
}
