import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBusSetup } from './bus-setup.command';

function capture() {
  const out: string[] = [];
  const error: string[] = [];
  return { out, error, output: { out: (line: string) => void out.push(line), error: (line: string) => void error.push(line) } };
}

describe('the bus-setup command line', () => {
  it('answers a wrong command line with exit code 2 and the usage', async () => {
    for (const argv of [[], ['rotate'], ['init', '--unknown', 'x'], ['init', '--port', '70000', '--out', 'bus'], ['enrollment-token']]) {
      const { output, error } = capture();
      expect({ argv, code: await runBusSetup(argv, {}, output) }).toEqual({ argv, code: 2 });
      if (argv.length > 0) expect(error.join('\n')).toContain('npm run bus -- init --out <dir>');
    }
  });

  it('says which flags are wrong, and that an API token is missing, before calling any gateway', async () => {
    const { output, error } = capture();

    expect(await runBusSetup(['enrollment-token'], {}, output)).toBe(2);
    expect(error.join('\n')).toMatch(/--gateway: is required\nSWITCHYARD_API_TOKEN: is not set/);
  });

  it('prints each file with what it did, and points at the authority', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-setup-command-'));
    try {
      const { output, out } = capture();

      expect(await runBusSetup(['init', '--out', path.join(root, 'bus')], {}, output)).toBe(0);
      expect(out[0]).toBe(`created  ${path.join(root, 'bus', 'authority', 'authority.json')}`);
      expect(out.at(-1)).toMatch(/authority\.json private and backed up/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
