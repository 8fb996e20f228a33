import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { workspaceRoot } from './workspace-lint';

export interface ImportClosure {
  /** Repository files reached, relative to the root. */
  readonly files: ReadonlySet<string>;
  /** Packages outside the repository imported by those files, with one file that imports each. */
  readonly packages: ReadonlyMap<string, string>;
}

/** `@switchyard/<lib>` → its entry file, from tsconfig.base.json's paths. */
function workspaceLibraries(): Map<string, string> {
  const config = JSON.parse(readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  return new Map(Object.entries(config.compilerOptions.paths).map(([name, [entry]]) => [name, path.join(workspaceRoot, entry!)]));
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/**
 * Every file and package a TypeScript entry file pulls in at run time: static imports, re-exports,
 * `require` and `import()` with a literal, followed through relative paths and `@switchyard/*`
 * libs; type-only imports are left out (they vanish when compiled).
 */
export function importClosure(entry: string): ImportClosure {
  const libraries = workspaceLibraries();
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const pending = [path.resolve(workspaceRoot, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    const relativeFile = path.relative(workspaceRoot, file);
    if (files.has(relativeFile)) continue;
    files.add(relativeFile);
    for (const specifier of runtimeImportsOf(file)) {
      const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : libraries.get(specifier);
      if (target) pending.push(target);
      else if (!specifier.startsWith('.') && !specifier.startsWith('node:')) packages.set(packageOf(specifier), packages.get(packageOf(specifier)) ?? relativeFile);
    }
  }
  return { files, packages };
}

function runtimeImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes = bindings !== undefined && ts.isNamedImports(bindings) && node.importClause?.name === undefined && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}
