import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTemporaryDirectory } from '../exec-env/exec-env.spec-helper';
import { measureDirectorySize } from './directory-size.meter';

const MIB = 1024 * 1024;

describe('measureDirectorySize', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  let measured: string;
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
    measured = path.join(temporary.path, 'measured');
    await mkdir(path.join(measured, 'nested', 'deeper'), { recursive: true });
  });
  afterEach(() => temporary.remove());

  it('counts the disk usage of every file below, nested ones too', async () => {
    const empty = await measureDirectorySize(measured);
    await writeFile(path.join(measured, 'nested', 'deeper', 'data.bin'), Buffer.alloc(MIB, 1));

    const size = await measureDirectorySize(measured);

    expect(size.complete).toBe(true);
    expect(size.entries).toBe(3);
    expect(size.bytes - empty.bytes).toBeGreaterThanOrEqual(MIB);
  });

  it('never follows a symlink: a link to a big tree elsewhere adds only itself', async () => {
    const elsewhere = path.join(temporary.path, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, 'big.bin'), Buffer.alloc(4 * MIB, 1));
    const before = await measureDirectorySize(measured);
    await symlink(elsewhere, path.join(measured, 'repo-local'));
    await symlink(path.join(elsewhere, 'big.bin'), path.join(measured, 'big-link.bin'));

    const after = await measureDirectorySize(measured);

    expect(after.entries).toBe(before.entries + 2);
    expect(after.bytes - before.bytes).toBeLessThan(MIB);
  });

  it('counts a hard-linked file once, as du does', async () => {
    await writeFile(path.join(measured, 'original.bin'), Buffer.alloc(2 * MIB, 1));
    const once = await measureDirectorySize(measured);
    await link(path.join(measured, 'original.bin'), path.join(measured, 'nested', 'again.bin'));

    const twice = await measureDirectorySize(measured);

    expect(twice.entries).toBe(once.entries + 1);
    expect(twice.bytes).toBe(once.bytes);
  });

  it('stops at its entry bound and says the size is a lower bound', async () => {
    for (let index = 0; index < 10; index += 1) await writeFile(path.join(measured, `file-${index}.txt`), 'x');

    const bounded = await measureDirectorySize(measured, { maxEntries: 4 });

    expect(bounded).toMatchObject({ entries: 4, complete: false });
    await expect(measureDirectorySize(measured)).resolves.toMatchObject({ entries: 12, complete: true });
  });
});
