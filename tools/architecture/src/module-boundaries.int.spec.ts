import { lintProbe, refreshProjectGraph } from './workspace-lint';

const boundaryRule = '@nx/enforce-module-boundaries';

function boundaryErrors(result: { messages: Array<{ ruleId: string | null; message: string }> }): string[] {
  return result.messages.filter((message) => message.ruleId === boundaryRule).map((message) => message.message);
}

describe('module boundaries (lint)', () => {
  beforeAll(() => refreshProjectGraph());

  it('rejects a service importing another service', async () => {
    const result = await lintProbe('services/queue/src', "import { AppModule } from '../../gateway/src/main';\nexport const probe = AppModule;\n");
    expect(boundaryErrors(result)).toEqual([expect.stringContaining('must begin with a npm scope')]);
  });

  it('rejects contracts importing any other lib', async () => {
    const result = await lintProbe('libs/contracts/src', "import { startNatsServer } from '@switchyard/messaging';\nexport const probe = startNatsServer;\n");
    expect(boundaryErrors(result)).toEqual([expect.stringContaining('scope:contracts')]);
  });

  it('lets a service import a lib', async () => {
    const result = await lintProbe('services/queue/src', "import { HEADERS } from '@switchyard/contracts';\nexport const probe = HEADERS;\n");
    expect(boundaryErrors(result)).toEqual([]);
  });

  it('flags a floating promise', async () => {
    const result = await lintProbe('libs/contracts/src', 'async function work(): Promise<void> {}\nwork();\nexport {};\n');
    expect(result.messages.map((message) => message.ruleId)).toContain('@typescript-eslint/no-floating-promises');
  });
});
