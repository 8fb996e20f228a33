import { readFileSync } from 'node:fs';
import path from 'node:path';

const importsOf = (file: string): string[] => [...readFileSync(path.join(__dirname, file), 'utf8').matchAll(/^import\s[^;]*?from\s+'([^']+)';|^import\s+'([^']+)';/gm)].map((match) => match[1] ?? match[2] ?? '');

describe('the young generation stays small while the daemon boots', () => {
  it('is capped before main requires anything else', () => {
    expect(importsOf('main.ts')[0]).toBe('./boot-young-generation');
  });

  it('requires nothing but Node to set the cap', () => {
    expect(importsOf('boot-young-generation.ts').every((specifier) => specifier.startsWith('node:'))).toBe(true);
  });
});
