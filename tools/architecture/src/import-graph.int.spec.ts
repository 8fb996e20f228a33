import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cyclesOf, folderArrows, importGraph } from './import-graph';
import { workspaceRoot } from './workspace-lint';

const arrowsOf = (edges: Record<string, string[]>): Map<string, Set<string>> => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('import graph', () => {
  it('finds a cycle of any length, and none in a chain', () => {
    expect(cyclesOf(arrowsOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(arrowsOf({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('has no import cycle between files or between folders of the repository', () => {
    const graph = importGraph(workspaceRoot);
    expect(cyclesOf(graph.arrows)).toEqual([]);
    expect(cyclesOf(folderArrows(graph))).toEqual([]);
  });

  it('fails on a probe that makes two gateway folders import each other', () => {
    const issues = 'services/gateway/src/workspace/issues/probe-cycle-a.ts';
    const triggers = 'services/gateway/src/workspace/triggers/probe-cycle-b.ts';
    mkdirSync(path.join(workspaceRoot, path.dirname(triggers)), { recursive: true });
    writeFileSync(path.join(workspaceRoot, issues), "export { probeB } from '../triggers/probe-cycle-b';\nexport const probeA = 1;\n");
    writeFileSync(path.join(workspaceRoot, triggers), "export { probeA } from '../issues/probe-cycle-a';\nexport const probeB = 2;\n");
    try {
      const graph = importGraph(workspaceRoot);
      expect(cyclesOf(folderArrows(graph))).toContainEqual(['services/gateway/src/workspace/issues', 'services/gateway/src/workspace/triggers']);
    } finally {
      rmSync(path.join(workspaceRoot, issues));
      rmSync(path.join(workspaceRoot, triggers));
    }
  });
});
