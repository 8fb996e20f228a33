import { execFile } from 'node:child_process';
import path from 'node:path';
import { lintProbe, refreshProjectGraph, workspaceRoot } from './workspace-lint';

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: workspaceRoot, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const boundaryRule = '@nx/enforce-module-boundaries';

function boundaryErrors(result: { messages: Array<{ ruleId: string | null; message: string }> }): string[] {
  return result.messages.filter((message) => message.ruleId === boundaryRule).map((message) => message.message);
}

// A probe lints one file with the type-aware rules, a program of its own: on two cores busy with
// other test files, a test of several probes took over the default 60 s.
const PROBE_TEST_TIMEOUT_MS = 180_000;

describe('module boundaries (lint)', () => {
  beforeAll(() => refreshProjectGraph());

  it('rejects a service importing another service', async () => {
    const result = await lintProbe('services/queue/src', "import { AppModule } from '../../gateway/src/main';\nexport const probe = AppModule;\n");
    expect(boundaryErrors(result)).toEqual([expect.stringContaining('must begin with a npm scope')]);
  }, PROBE_TEST_TIMEOUT_MS);

  it('rejects contracts importing any other lib', async () => {
    const result = await lintProbe('libs/contracts/src', "import { startNatsServer } from '@switchyard/messaging';\nexport const probe = startNatsServer;\n");
    expect(boundaryErrors(result)).toEqual([expect.stringContaining('scope:contracts')]);
  }, PROBE_TEST_TIMEOUT_MS);

  it('lets a service import a lib', async () => {
    const result = await lintProbe('services/queue/src', "import { HEADERS } from '@switchyard/contracts';\nexport const probe = HEADERS;\n");
    expect(boundaryErrors(result)).toEqual([]);
  }, PROBE_TEST_TIMEOUT_MS);

  it('rejects nats.js outside libs/messaging, test support in a service, and the raw clients in tests', async () => {
    const natsProbe = await lintProbe('services/gateway/src', "import { connect } from '@nats-io/transport-node';\nexport const probe = connect;\n");
    expect(natsProbe.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)).toEqual([expect.stringContaining('Only libs/messaging talks to NATS')]);
    const testingProbe = await lintProbe('services/daemon/src', "import { readStream } from '@switchyard/messaging/testing';\nexport const probe = readStream;\n");
    expect(testingProbe.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)).toEqual([expect.stringContaining('Test support is for tests')]);
    const rawClientsProbe = await lintProbe('libs/testing/src', "import { benchmarkNatsClients } from '@switchyard/messaging/testing';\nexport const probe = benchmarkNatsClients;\n");
    expect(rawClientsProbe.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)).toEqual([expect.stringContaining('raw NATS clients are for tools/bench')]);
    const insideMessaging = await lintProbe('libs/messaging/src', "import { connect } from '@nats-io/transport-node';\nexport const probe = connect;\n");
    expect(insideMessaging.messages.filter((message) => message.ruleId === 'no-restricted-imports')).toEqual([]);
  }, PROBE_TEST_TIMEOUT_MS);

  it('keeps the gateway workspace domain out of its edge, and lets the edge call the domain', async () => {
    const restricted = (result: { messages: Array<{ ruleId: string | null; message: string }> }): string[] =>
      result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
    const domainProbe = await lintProbe('services/gateway/src/workspace/issues', "import { AuthModule } from '../../edge/auth/auth.module';\nexport const probe = AuthModule;\n");
    expect(restricted(domainProbe)).toEqual([expect.stringContaining('never imports the gateway edge')]);
    const natsInDomain = await lintProbe('services/gateway/src/workspace/chat', "import { connect } from '@nats-io/transport-node';\nexport const probe = connect;\n");
    expect(restricted(natsInDomain)).toEqual([expect.stringContaining('Only libs/messaging talks to NATS')]);
    const edgeProbe = await lintProbe('services/gateway/src/edge/rest', "import { IssuesModule } from '../../workspace/issues/issues.module';\nexport const probe = IssuesModule;\n");
    expect(restricted(edgeProbe)).toEqual([]);
  }, PROBE_TEST_TIMEOUT_MS);

  it('flags a floating promise', async () => {
    const result = await lintProbe('libs/contracts/src', 'async function work(): Promise<void> {}\nwork();\nexport {};\n');
    expect(result.messages.map((message) => message.ruleId)).toContain('@typescript-eslint/no-floating-promises');
  }, PROBE_TEST_TIMEOUT_MS);
});

// swc compiles without type-checking, so these keep types and lint honest in `npm test`. One file:
// jest runs its tests in order, so the probes written above never meet the whole-repository runs.
describe('the repository', () => {
  // Whole-repository runs, started together (each is one busy core for a minute or more) once the
  // probes are gone; each test awaits its own. Their bound is generous for two busy cores.
  let typeChecks: Promise<Array<{ project: string; code: number; output: string }>>;
  let lint: Promise<{ code: number; output: string }>;
  beforeAll(() => {
    refreshProjectGraph();
    const tsc = path.join(workspaceRoot, 'node_modules/typescript/bin/tsc');
    typeChecks = (async () => {
      const results = [];
      for (const project of ['tsconfig.json', 'apps/web/tsconfig.json']) results.push({ project, ...(await run(process.execPath, [tsc, '-p', project, '--noEmit'])) });
      return results;
    })();
    lint = run(process.execPath, [path.join(workspaceRoot, 'node_modules/eslint/bin/eslint.js'), '.', '--ignore-pattern', '**/lint-probe-*.ts']);
  });

  it('type-checks with tsc (strict): the services, libs and tools, and the web app with its own DOM settings', async () => {
    for (const result of await typeChecks) expect(result).toEqual({ project: result.project, code: 0, output: '' });
  }, 300_000);

  it('lints clean (type-aware rules and module boundaries)', async () => {
    expect(await lint).toEqual({ code: 0, output: '' });
  }, 300_000);
});
