import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TABLE_OWNERS, type TableOwner } from '@switchyard/persistence';
import { workspaceRoot } from './workspace-lint';

/** One place outside its owner that names a table in SQL, or uses its TypeORM entity. */
export interface TableTrespass {
  readonly file: string;
  readonly table: string;
  readonly owner: string;
  readonly line: number;
}

const SCANNED_ROOTS = ['services', 'libs', 'tools'];

// Tests seed and inspect rows as they please. The benchmarks time raw SQL on purpose: it is the
// baseline our readers and writers are measured against. The owner map names the entities.
const EXEMPT = /(\.spec\.ts|\.spec-helper\.ts|\.test-d\.ts)$/;
const EXEMPT_PATHS = ['tools/bench/src/', 'libs/persistence/src/schema/table-owners.ts'];

function productionFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === '__fixtures__' ? [] : productionFiles(full);
    return entry.name.endsWith('.ts') && !EXEMPT.test(entry.name) ? [full] : [];
  });
}

/** SQL that reads or writes a table: its name right after a keyword that takes one (across lines). */
function sqlNaming(table: string): RegExp {
  return new RegExp(`\\b(from|join|into|update|table|truncate)\\s+"?${table}"?(?![\\w-])`, 'gi');
}

function isInside(file: string, owner: TableOwner): boolean {
  return owner.folders.some((folder) => file.startsWith(`${folder}/`));
}

function lineAt(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

/** Where `source` (the file at `file`, relative to the root) trespasses on a table it does not own. */
export function trespassesIn(file: string, source: string): TableTrespass[] {
  return TABLE_OWNERS.filter((owner) => !isInside(file, owner)).flatMap((owner) => {
    const patterns = [
      ...owner.tables.map((table) => ({ table, pattern: sqlNaming(table) })),
      ...owner.entities.map((entity) => ({ table: entity, pattern: new RegExp(`\\b${entity}\\b`, 'g') })),
    ];
    return patterns.flatMap(({ table, pattern }) =>
      [...source.matchAll(pattern)].map((match) => ({ file, table, owner: owner.name, line: lineAt(source, match.index ?? 0) })),
    );
  });
}

/** Every trespass in the repository's production sources. */
export function tableTrespasses(): TableTrespass[] {
  return SCANNED_ROOTS.flatMap((root) => productionFiles(path.join(workspaceRoot, root)))
    .map((full) => ({ full, file: path.relative(workspaceRoot, full).split(path.sep).join('/') }))
    .filter(({ file }) => !EXEMPT_PATHS.some((exempt) => file.startsWith(exempt)))
    .flatMap(({ full, file }) => trespassesIn(file, readFileSync(full, 'utf8')));
}
