import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transformFile } from '@swc/core';

// The guards change what a whole process does, so they are tried in processes of their own: the
// guard and the logger compiled as they ship, then a script that misbehaves the way services do.

const workspaceRoot = path.resolve(__dirname, '../../../..');
const SURVIVOR = `
  const { createJsonLogger } = require('./logging/json-logger');
  const { installProcessGuards } = require('./bootstrap/process-guards');
  const logger = createJsonLogger({ service: 'guard-probe', level: 'info' });
  const installed = [installProcessGuards(logger), installProcessGuards(logger)];
  void Promise.reject(new Error('nobody awaits this'));
  setTimeout(() => { throw new Error('thrown in a timer callback'); });
  setTimeout(() => logger.info({ event: 'still_serving', installed }, 'still serving'), 1);
`;
const FATAL = `
  const assert = require('node:assert');
  const { createJsonLogger } = require('./logging/json-logger');
  const { installProcessGuards } = require('./bootstrap/process-guards');
  installProcessGuards(createJsonLogger({ service: 'guard-probe', level: 'info' }));
  // Work the process would go on with: only the guard's exit ends it.
  setInterval(() => undefined, 1_000);
  setTimeout(() => assert.strictEqual(1, 2, 'the slot count went negative'));
`;

interface ChildOutcome {
  readonly code: number | null;
  readonly lines: Array<Record<string, unknown>>;
}

describe('process guards (child processes)', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-process-guards-'));
    for (const source of ['logging/json-logger.ts', 'bootstrap/process-guards.ts']) {
      const { code } = await transformFile(path.join(__dirname, '..', source), { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
      await mkdir(path.join(directory, path.dirname(source)), { recursive: true });
      await writeFile(path.join(directory, source.replace(/\.ts$/, '.js')), code);
    }
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  function run(script: string): Promise<ChildOutcome> {
    return new Promise((resolve) => {
      execFile(process.execPath, ['-e', script], { cwd: directory, env: { PATH: process.env['PATH'] ?? '', NODE_PATH: path.join(workspaceRoot, 'node_modules') } }, (error, stdout) => {
        const lines = stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, lines });
      });
    });
  }

  it('logs an unhandled rejection and an uncaught exception as structured error events and keeps the process running; installs once', async () => {
    const outcome = await run(SURVIVOR);

    expect(outcome.code).toBe(0);
    expect(outcome.lines.map((line) => [line['level'], line['event']])).toEqual([
      ['error', 'unhandled_rejection'],
      ['error', 'uncaught_exception'],
      ['info', 'still_serving'],
    ]);
    expect(outcome.lines[0]).toMatchObject({ service: 'guard-probe', err: { type: 'Error', message: 'nobody awaits this', stack: expect.any(String) } });
    expect(outcome.lines[1]).toMatchObject({ origin: 'uncaughtException', err: { message: 'thrown in a timer callback' } });
    expect(outcome.lines[2]?.['installed']).toEqual([true, false]);
  });

  it('exits with 70 after logging an error it knows is fatal (a failed assertion)', async () => {
    const outcome = await run(FATAL);

    expect(outcome.code).toBe(70);
    expect(outcome.lines).toEqual([expect.objectContaining({ level: 'fatal', event: 'fatal_error', err: expect.objectContaining({ code: 'ERR_ASSERTION' }) })]);
  });
});
