// One swc configuration for the runtime build and for jest, so tests run the code as it ships.
const path = require('node:path');
const { compilerOptions } = require('../../tsconfig.base.json');

const workspaceRoot = path.resolve(__dirname, '../..');

/** @param {{ rewritePaths: boolean }} options */
function swcOptions({ rewritePaths }) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true },
      ...(rewritePaths ? { baseUrl: workspaceRoot, paths: compilerOptions.paths } : {}),
    },
    module: { type: 'commonjs', strict: true },
    sourceMaps: true,
  };
}

/** Jest moduleNameMapper entries for the workspace path aliases. */
function jestModuleNameMapper() {
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&')}$`] = path.join(workspaceRoot, target);
  }
  return mapper;
}

/**
 * Installed packages published as ES modules only (execa, PGlite's loader, ...). jest on Node 20
 * cannot require() them, so they go through swc like our sources; everything else is left alone.
 */
function esmOnlyPackages() {
  return esmOnlyManifests().map((entry) => entry.name);
}

/**
 * Root entry points of the ES-module-only packages our runtime dependencies pull in (execa's tree,
 * for instance) whose `exports` offer only an `import` condition, which jest (resolving with
 * `require`) cannot find. Only the runtime dependency closure is mapped, and a name found in two
 * versions is left alone rather than guessed.
 */
function esmEntryModuleNameMapper() {
  const fs = require('node:fs');
  const rootManifest = JSON.parse(fs.readFileSync(path.join(workspaceRoot, 'package.json'), 'utf8'));
  const byName = new Map();
  const visited = new Set();
  const resolvePackage = (name, fromDirectory) => {
    for (let directory = fromDirectory; ; directory = path.dirname(directory)) {
      const candidate = path.join(directory, 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
      if (directory === workspaceRoot || directory === path.dirname(directory)) return undefined;
    }
  };
  const walk = (name, fromDirectory) => {
    const directory = resolvePackage(name, fromDirectory);
    if (!directory || visited.has(directory)) return;
    visited.add(directory);
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8'));
    if (manifest.type === 'module') {
      const entry = importEntry(manifest.exports);
      if (entry) byName.set(name, [...(byName.get(name) ?? []), path.join(directory, entry)]);
    }
    for (const dependency of Object.keys(manifest.dependencies ?? {})) walk(dependency, directory);
  };
  for (const dependency of Object.keys(rootManifest.dependencies ?? {})) walk(dependency, workspaceRoot);
  const mapper = {};
  for (const [name, entries] of byName) {
    if (entries.length === 1) mapper[`^${name.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&')}$`] = entries[0];
  }
  return mapper;
}

function importEntry(exportsField) {
  if (!exportsField || typeof exportsField === 'string') return undefined;
  const root = exportsField['.'] ?? exportsField;
  if (typeof root === 'string') return undefined;
  // Only packages that jest's `require` conditions cannot resolve need a mapping.
  if (conditionTarget(root, ['require', 'default'])) return undefined;
  return conditionTarget(root, ['node', 'import', 'default']);
}

function conditionTarget(node, conditions) {
  if (typeof node === 'string') return node;
  if (!node || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'types') continue;
    if (conditions.includes(key)) {
      const target = conditionTarget(value, conditions);
      if (target) return target;
    }
  }
  return undefined;
}

function esmOnlyManifests() {
  const fs = require('node:fs');
  const found = new Map();
  const scan = (directory) => {
    let entries = [];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const full = path.join(directory, entry.name);
      if (entry.name.startsWith('@')) {
        scan(full);
        continue;
      }
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(full, 'package.json'), 'utf8'));
        if (manifest.type === 'module' && manifest.name && !found.has(full)) found.set(full, { name: manifest.name, directory: full, manifest });
      } catch {
        // Not a package folder.
      }
      scan(path.join(full, 'node_modules'));
    }
  };
  scan(path.join(workspaceRoot, 'node_modules'));
  return [...found.values()].sort((left, right) => left.name.localeCompare(right.name));
}

module.exports = { swcOptions, jestModuleNameMapper, esmOnlyPackages, esmEntryModuleNameMapper, workspaceRoot };
