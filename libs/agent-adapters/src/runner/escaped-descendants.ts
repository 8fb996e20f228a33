import { readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  readonly pid: number;
  readonly parentPid: number;
  readonly processGroupId: number;
}

function processTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the parenthesised command name: state, ppid, pgrp, ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      entries.push({ pid: Number(name), parentPid: Number(fields[1]), processGroupId: Number(fields[2]) });
    } catch {
      // Gone already.
    }
  }
  return entries;
}

/**
 * The process groups that descendants of a run's group started for themselves (setsid, job
 * control): Claude Code, for one, runs each shell tool command in a session of its own, which a
 * signal to the run's group never reaches. Only groups led by a descendant count, so nothing
 * outside the run's tree is ever named. Read while the group's members are alive: once they die,
 * their orphans belong to init and the link is lost. Linux only (/proc); elsewhere none.
 */
export function escapedDescendantGroups(processGroupId: number): number[] {
  const table = processTable();
  const childrenOf = new Map<number, ProcessEntry[]>();
  for (const entry of table) childrenOf.set(entry.parentPid, [...(childrenOf.get(entry.parentPid) ?? []), entry]);
  const descendants = new Set<number>();
  const pending = table.filter((entry) => entry.processGroupId === processGroupId).map((entry) => entry.pid);
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    for (const child of childrenOf.get(pid) ?? []) {
      if (descendants.has(child.pid)) continue;
      descendants.add(child.pid);
      pending.push(child.pid);
    }
  }
  const groups = new Set<number>();
  for (const entry of table) {
    if (descendants.has(entry.pid) && entry.processGroupId !== processGroupId && descendants.has(entry.processGroupId)) groups.add(entry.processGroupId);
  }
  return [...groups];
}
