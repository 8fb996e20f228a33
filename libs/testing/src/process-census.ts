import { readdirSync, readFileSync } from 'node:fs';

/** Processes whose environment carries this exact variable, e.g. a run's private HOME (Linux). */
export function processesWithEnvironment(entry: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environment = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      if (environment.includes(entry)) found.push(Number(name));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}
