import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import type { MockModelServer } from '@switchyard/testing';
import type { AgentRunResult } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { builtInIdentityOf } from '../catalog/runtime-identity.catalog';
import type { LaunchTarget } from '../family-kit/family-wing.types';
import { familyWing } from '../runtime-wing/family-wing.loaders';
import { prepareLaunchEnvironment } from '../runtime-wing/runtime-wing';
import { classifiedResult } from './failure-classifying.backend';
import { evidenceOf, type FailureEvidence } from './failure-evidence';
import { classifyProviderFailure } from './provider-failure.rules';

/** The provider failures every CLI is recorded against, by the reason each must be classified as. */
export const RECORDED_FAILURES = {
  rate_limited: '[[scenario:error 429]]',
  auth_failed: '[[scenario:error 401]]',
  invalid_request: '[[scenario:error 400]]',
  provider_error: '[[scenario:error 500]]',
  provider_network: '[[scenario:reset]]',
  context_overflow: '[[scenario:context-overflow]]',
} as const;
export type RecordedFailureName = keyof typeof RECORDED_FAILURES;

/** One real CLI run against one scripted failure: what it printed, and the evidence the adapter kept (before classification). */
export interface FailureRecording {
  readonly cli: string;
  readonly version: string;
  readonly scenario: RecordedFailureName;
  readonly prompt: string;
  readonly exitCode: number | null;
  /** Raw stdout lines as the CLI printed them (temporary paths replaced by `<tmp>`). */
  readonly stdout: readonly string[];
  readonly stderr: string;
  /** How many model requests the CLI made: more than one is the CLI retrying on its own. */
  readonly modelRequests: number;
  readonly evidence: FailureEvidence;
  readonly adapterStatus: AgentRunResult['status'];
}

export interface RecordingRuntime {
  readonly target: Omit<LaunchTarget, 'executablePath'>;
  readonly executablePath: string;
  readonly agentEnv: (server: MockModelServer) => Record<string, string>;
  readonly model: string | null;
}

const MAXIMUM_LINE_CHARACTERS = 4_000;
const MAXIMUM_STDERR_CHARACTERS = 8_000;

/**
 * Runs the CLI the way the daemon does (the family wing's backend and launch environment), behind
 * a wrapper that tees its raw stdout and stderr, so a fixture holds what the CLI really printed.
 * `result` is classified by the family's classifier, as the runtime wing does it.
 */
export async function recordFailure(options: { readonly runtime: RecordingRuntime; readonly server: MockModelServer; readonly scenario: RecordedFailureName }): Promise<{ recording: FailureRecording; result: AgentRunResult; messages: AgentMessage[] }> {
  const { runtime, server, scenario } = options;
  // Codex refuses helper binaries under /tmp; every CLI is happy under the user's cache.
  const base = path.join(homedir(), '.cache', 'switchyard-failures');
  mkdirSync(base, { recursive: true });
  const root = await mkdtemp(path.join(base, `${runtime.target.identity ?? 'cli'}-`));
  try {
    const home = path.join(root, 'home');
    const work = path.join(root, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(work, { recursive: true });
    const wrapper = writeTeeWrapper(root);
    const target: LaunchTarget = { ...runtime.target, executablePath: runtime.executablePath };
    const agent = { env: runtime.agentEnv(server), model: runtime.model };
    const launch = await prepareLaunchEnvironment({ target, agent, home });
    const wing = familyWing(target.protocolFamily);
    const backend = wing.backendFor(target, builtInIdentityOf(target));
    const requestsBefore = server.requests().length;
    const prompt = `Do the task. ${RECORDED_FAILURES[scenario]}`;
    const session = await backend.execute(prompt, {
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...launch, ...agent.env, RECORD_REAL_CLI: runtime.executablePath, RECORD_OUT: path.join(root, 'out'), RECORD_ERR: path.join(root, 'err') },
      executable: wrapper,
      ...(runtime.model ? { model: runtime.model } : {}),
      timeouts: { idleMs: 90_000, totalMs: 150_000 },
    });
    const { messages, result: raw } = await collectRun(session);
    const evidence = evidenceOf({ result: unmaskedForEvidence(raw, wing.failedOutput), messages });
    const result = classifiedResult(raw, { classify: wing.classifyFailure ?? classifyProviderFailure, ...(wing.failedOutput ? { failedOutput: wing.failedOutput } : {}) }, evidence.errorTexts);
    const scrub = (text: string) => text.split(root).join('<tmp>').split(homedir()).join('<home>');
    const recording: FailureRecording = {
      cli: runtime.target.identity ?? runtime.target.protocolFamily,
      version: runtime.target.version,
      scenario,
      prompt,
      exitCode: result.exitCode,
      stdout: readOr(path.join(root, 'out')).split('\n').filter((line) => line.trim() !== '').map((line) => scrub(line).slice(0, MAXIMUM_LINE_CHARACTERS)),
      stderr: scrub(readOr(path.join(root, 'err'))).slice(-MAXIMUM_STDERR_CHARACTERS),
      modelRequests: server.requests().slice(requestsBefore).filter((request) => request.api !== undefined).length,
      evidence: scrubEvidence(evidence, scrub),
      adapterStatus: raw.status,
    };
    return { recording, result, messages };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Where a family keeps its recordings: `<family>/__fixtures__/failures/<cli>.<scenario>.json`. */
export function failureFixturePath(family: string, cli: string, scenario: RecordedFailureName): string {
  return path.join(__dirname, '..', family, '__fixtures__', 'failures', `${cli}.${scenario}.json`);
}

export function writeFailureFixture(family: string, recording: FailureRecording): void {
  const file = failureFixturePath(family, recording.cli, recording.scenario);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(recording, null, 2)}\n`);
}

export function readFailureFixture(family: string, cli: string, scenario: RecordedFailureName): FailureRecording {
  return JSON.parse(readFileSync(failureFixturePath(family, cli, scenario), 'utf8')) as FailureRecording;
}

/** The CLI under a shell wrapper that copies its stdout and stderr to files; the exit code is the CLI's. */
function writeTeeWrapper(root: string): string {
  const file = path.join(root, 'tee-cli.sh');
  writeFileSync(file, '#!/bin/bash\n"$RECORD_REAL_CLI" "$@" > >(tee -a "$RECORD_OUT") 2> >(tee -a "$RECORD_ERR" >&2)\nstatus=$?\nwait\nexit $status\n');
  chmodSync(file, 0o755);
  return file;
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function scrubEvidence(evidence: FailureEvidence, scrub: (text: string) => string): FailureEvidence {
  return { ...evidence, message: scrub(evidence.message), stderrTail: scrub(evidence.stderrTail), errorTexts: evidence.errorTexts.map(scrub) };
}

/** The evidence of a "completed" run whose output is an error report, as the classifying backend sees it. */
function unmaskedForEvidence(result: AgentRunResult, failedOutput: RegExp | undefined): AgentRunResult {
  return result.status === 'completed' && failedOutput?.test(result.output) ? (classifiedResult(result, { classify: () => undefined, failedOutput }, [])) : result;
}
