import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const OWNER_ONLY_DIRECTORY = 0o700;
const OWNER_ONLY_FILE = 0o600;

/**
 * Creates the embedded database's data directory owner-only before PGlite writes into it, so no
 * one else can reach what initdb writes there even for a moment.
 */
export function prepareDataDirectory(dataDirectory: string): void {
  mkdirSync(dataDirectory, { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  chmodSync(dataDirectory, OWNER_ONLY_DIRECTORY);
}

/**
 * Makes every folder under the data directory 0700 and every file 0600. PGlite copies its initial
 * cluster in with mode 0666 whatever the umask (files Postgres creates later ask for 0600 itself),
 * and installs before this one were left that way: run at every start.
 */
export function restrictDataDirectory(dataDirectory: string): void {
  const stats = lstatSync(dataDirectory);
  if (stats.isSymbolicLink()) return;
  if (stats.isDirectory()) {
    chmodSync(dataDirectory, OWNER_ONLY_DIRECTORY);
    for (const name of readdirSync(dataDirectory)) restrictDataDirectory(path.join(dataDirectory, name));
  } else if (stats.isFile()) {
    chmodSync(dataDirectory, OWNER_ONLY_FILE);
  }
}
