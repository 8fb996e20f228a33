import { execFile } from 'node:child_process';
import path from 'node:path';

// Runs the compiler over the `*.test-d.ts` type tests, and over a deliberately drifted fixture to
// prove those tests can fail at all.

const workspaceRoot = path.resolve(__dirname, '../../..');
const compiler = path.join(workspaceRoot, 'node_modules/.bin/tsc');

interface CompilerRun {
  exitCode: number;
  output: string;
}

function typeCheck(project: string): Promise<CompilerRun> {
  return new Promise((resolve) => {
    execFile(compiler, ['-p', project, '--noEmit', '--pretty', 'false'], { cwd: workspaceRoot }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ exitCode, output: `${stdout}${stderr}` });
    });
  });
}

describe('contract type tests', () => {
  let typeTests: CompilerRun;
  let mismatchFixture: CompilerRun;

  beforeAll(async () => {
    [typeTests, mismatchFixture] = await Promise.all([
      typeCheck('libs/contracts/tsconfig.typetest.json'),
      typeCheck('libs/contracts/__fixtures__/tsconfig.type-mismatch.json'),
    ]);
  }, 120_000);

  it('agree: every explicit type equals the type inferred from its schema', () => {
    expect(typeTests.output).toBe('');
    expect(typeTests.exitCode).toBe(0);
  });

  it('can fail: a drifted type is reported on each mismatched assertion', () => {
    expect(mismatchFixture.exitCode).not.toBe(0);
    const errors = mismatchFixture.output.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toContain('type-mismatch.test-d.ts');
      expect(error).toContain("error TS2344: Type 'false' does not satisfy the constraint 'true'.");
    }
  });
});
