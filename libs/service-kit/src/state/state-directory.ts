import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates a Switchyard state folder (a `SWITCHYARD_HOME`) and marks it ignored by git with a
 * `.gitignore` of `*`: a home inside a clone holds tokens, keys and databases, and must never be
 * committed, whatever it is called.
 */
export function prepareStateDirectory(directory: string): string {
  const absolute = path.resolve(directory);
  mkdirSync(absolute, { recursive: true });
  const ignoreFile = path.join(absolute, '.gitignore');
  if (!existsSync(ignoreFile)) writeFileSync(ignoreFile, '# Switchyard state: never committed.\n*\n');
  return absolute;
}
