import path from 'node:path';
import { cyclesOf, folderArrows, importGraph, projectOf } from './import-graph';

/**
 * Prints the import graph of a checkout (default: this one): projects, files, arrows and cycles at
 * file, folder and project level. `node dist/tools/architecture/src/import-graph.main.js [root]`
 */
function main(): void {
  const root = path.resolve(process.argv[2] ?? process.cwd());
  const graph = importGraph(root);
  const arrows = [...graph.arrows.values()].reduce((total, targets) => total + targets.size, 0);
  const projectArrows = new Map<string, Set<string>>();
  for (const [file, targets] of graph.arrows) {
    const into = projectArrows.get(projectOf(file)) ?? new Set<string>();
    for (const target of targets) if (projectOf(target) !== projectOf(file)) into.add(projectOf(target));
    projectArrows.set(projectOf(file), into);
  }
  const features = folderArrows(graph);
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  print(`projects ${graph.projects.size}, files ${graph.files.length}, file arrows ${arrows}, file cycles ${cyclesOf(graph.arrows).length}`);
  print(`project arrows ${[...projectArrows.values()].reduce((total, targets) => total + targets.size, 0)}, project cycles ${cyclesOf(projectArrows).length}`);
  print(`folder arrows ${[...features.values()].reduce((total, targets) => total + targets.size, 0)}, folder cycles ${cyclesOf(features).length}`);
  for (const [project, count] of [...graph.projects].sort()) print(`  ${project}: ${count} files → ${[...(projectArrows.get(project) ?? [])].sort().join(', ') || '(nothing)'}`);
  for (const cycle of cyclesOf(features)) print(`  folder cycle: ${cycle.join(' ⇄ ')}`);
  for (const cycle of cyclesOf(graph.arrows)) print(`  file cycle: ${cycle.join(' ⇄ ')}`);
}

main();
