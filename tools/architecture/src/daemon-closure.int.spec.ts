import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importClosure } from './import-closure';
import { workspaceRoot } from './workspace-lint';

/** What a laptop's daemon must never load: the database stack. */
const DATABASE_PACKAGES = ['@switchyard/persistence', 'typeorm', 'pg', '@electric-sql/pglite', '@electric-sql/pglite-socket'];

const databaseIn = (closure: ReturnType<typeof importClosure>) => [
  ...[...closure.packages.keys()].filter((name) => DATABASE_PACKAGES.includes(name)).map((name) => `${name} (from ${closure.packages.get(name)})`),
  ...[...closure.files].filter((file) => file.startsWith('libs/persistence/')),
];

describe('the daemon stays light', () => {
  it('has no database code in the import closure of its main', () => {
    const closure = importClosure('services/daemon/src/main.ts');
    expect(closure.files.size).toBeGreaterThan(50);
    expect(closure.files).toContain('libs/service-kit/src/index.ts');
    expect(databaseIn(closure)).toEqual([]);
  });

  it('sees the database where a service does load it (the walk follows libs and re-exports)', () => {
    const closure = importClosure('services/queue/src/main.ts');
    expect(closure.packages.has('typeorm')).toBe(true);
    expect(closure.files).toContain('libs/persistence/src/index.ts');
  });

  it('fails on a probe that gives the daemon a database import', async () => {
    const probe = path.join(workspaceRoot, 'services/daemon/src/closure-probe.ts');
    await writeFile(probe, "import { databasePlatform } from '@switchyard/persistence';\nexport const probe = databasePlatform;\n");
    try {
      expect(databaseIn(importClosure('services/daemon/src/closure-probe.ts'))).toEqual(expect.arrayContaining([expect.stringContaining('typeorm'), 'libs/persistence/src/index.ts']));
    } finally {
      await rm(probe, { force: true });
    }
  });
});
