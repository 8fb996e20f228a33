import { readdirSync, readFileSync } from 'node:fs';

/** One live process as `/proc/<pid>/stat` describes it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly parentPid: number;
  readonly processGroupId: number;
  readonly sessionId: number;
  /** `R`, `S`, `D`, `Z`, ... */
  readonly state: string;
}

/** The stat line's fields after the parenthesised command name (which may hold spaces). */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // Gone already.
  }
}

/**
 * Every process on the machine that is not a zombie (a zombie does nothing and only its parent can
 * reap it). Linux only: elsewhere, and where /proc cannot be read, none.
 */
export function readProcessTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    // state, ppid, pgrp, session, ...
    if (!fields || fields[0] === 'Z') continue;
    entries.push({ pid: Number(name), state: fields[0] ?? '', parentPid: Number(fields[1]), processGroupId: Number(fields[2]), sessionId: Number(fields[3]) });
  }
  return entries;
}

/**
 * Whether one variable of the process's environment starts with `text` (`NAME=value` prefix; end
 * it with `\0` to match a whole entry). False once the process is gone or is not ours to read.
 */
export function environmentHasEntryStartingWith(pid: number, text: string): boolean {
  let environment: Buffer;
  try {
    environment = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  const needle = Buffer.from(text);
  // A match counts only at the start of a variable: the first one, or right after a NUL.
  for (let index = environment.indexOf(needle); index !== -1; index = environment.indexOf(needle, index + 1)) {
    if (index === 0 || environment[index - 1] === 0) return true;
  }
  return false;
}

/** The pids of these processes and of all their descendants, from one reading of the table. */
export function withDescendants(table: readonly ProcessEntry[], roots: ReadonlySet<number>): Set<number> {
  const childrenOf = new Map<number, number[]>();
  for (const entry of table) childrenOf.set(entry.parentPid, [...(childrenOf.get(entry.parentPid) ?? []), entry.pid]);
  const found = new Set(roots);
  const pending = [...roots];
  while (pending.length > 0) {
    for (const child of childrenOf.get(pending.pop() as number) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      pending.push(child);
    }
  }
  return found;
}
