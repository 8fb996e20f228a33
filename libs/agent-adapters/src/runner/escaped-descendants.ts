import { readProcessTable, withDescendants } from './process-table';

/**
 * The process groups that descendants of a run's group started for themselves (setsid, job
 * control): Claude Code, for one, runs each shell tool command in a session of its own, which a
 * signal to the run's group never reaches. Only groups led by a descendant count, so nothing
 * outside the run's tree is ever named. Read while the group's members are alive: once they die,
 * their orphans belong to init and the link is lost (the run's containment finds those). Linux
 * only (/proc); elsewhere none.
 */
export function escapedDescendantGroups(processGroupId: number): number[] {
  const table = readProcessTable();
  const members = new Set(table.filter((entry) => entry.processGroupId === processGroupId).map((entry) => entry.pid));
  const tree = withDescendants(table, members);
  const groups = new Set<number>();
  for (const entry of table) {
    if (tree.has(entry.pid) && !members.has(entry.pid) && entry.processGroupId !== processGroupId && tree.has(entry.processGroupId)) groups.add(entry.processGroupId);
  }
  return [...groups];
}
