import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repository's production files and the imports between them (type-only imports included: they couple too). */
export interface ImportGraph {
  /** Project folders (`services/gateway`, `libs/messaging`, ...) with their file counts. */
  readonly projects: ReadonlyMap<string, number>;
  readonly files: readonly string[];
  /** File → the repository files it imports. */
  readonly arrows: ReadonlyMap<string, ReadonlySet<string>>;
}

const SOURCE_ROOTS = ['services', 'libs', 'tools'];
// `lint-probe-*.ts` are other specs' short-lived probes (they came and went while this walked the tree in CI).
const LEFT_OUT = /(\.spec\.ts|\.spec-helper\.ts|\.test-d\.ts|\.d\.ts|^lint-probe-.*\.ts)$/;

function sourceFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return ['node_modules', '__fixtures__', 'testing-support'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !LEFT_OUT.test(entry.name) ? [full] : [];
  });
}

function librariesOf(root: string): Map<string, string> {
  const config = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  return new Map(Object.entries(config.compilerOptions.paths).map(([name, [entry]]) => [name, path.join(root, entry!)]));
}

function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolve(fromFile: string, specifier: string, libraries: Map<string, string>): string | undefined {
  if (!specifier.startsWith('.')) return libraries.get(specifier);
  const base = path.resolve(path.dirname(fromFile), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** `services/gateway/src/x.ts` → `services/gateway`. */
export function projectOf(file: string): string {
  return file.split('/').slice(0, 2).join('/');
}

/** The import graph of the checkout at `root`. */
export function importGraph(root: string): ImportGraph {
  const libraries = librariesOf(root);
  const relative = (full: string): string => path.relative(root, full).split(path.sep).join('/');
  const files = SOURCE_ROOTS.flatMap((folder) => sourceFiles(path.join(root, folder))).map(relative).sort();
  const known = new Set(files);
  const arrows = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = specifiersOf(path.join(root, file))
      .map((specifier) => resolve(path.join(root, file), specifier, libraries))
      .filter((target): target is string => target !== undefined)
      .map(relative)
      .filter((target) => known.has(target) && target !== file);
    arrows.set(file, new Set(targets));
  }
  const projects = new Map<string, number>();
  for (const file of files) projects.set(projectOf(file), (projects.get(projectOf(file)) ?? 0) + 1);
  return { projects, files, arrows };
}

/** Strongly connected groups of more than one node (Tarjan): each is an import cycle. */
export function cyclesOf(arrows: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of arrows.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of arrows.keys()) if (!index.has(node)) connect(node);
  return groups;
}

/**
 * The graph lifted to folders (`services/gateway/src/workspace/issues`): an arrow when any file
 * imports across. Files directly in a project's `src/` (its module wiring, config, DI keys) are
 * left out: every folder reaches them and they reach every folder by design.
 */
export function folderArrows(graph: ImportGraph): Map<string, Set<string>> {
  const folderOf = (file: string): string | undefined => {
    const folder = path.posix.dirname(file);
    return folder.split('/').length >= 4 ? folder : undefined;
  };
  const lifted = new Map<string, Set<string>>();
  for (const [file, targets] of graph.arrows) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const into = lifted.get(from) ?? new Set<string>();
    for (const target of targets) {
      const folder = folderOf(target);
      if (folder !== undefined && folder !== from) into.add(folder);
    }
    lifted.set(from, into);
  }
  return lifted;
}
