import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { AGENT_RUN_ERROR_CODES, type AgentRunResult } from '@switchyard/agent-adapters';
import { agentMessageSchema, type AgentMessage } from '@switchyard/contracts';
import { processesWithEnvironment } from '@switchyard/testing';
import { FAULT_CLI_PATH, faultScriptArgument, type FaultStep } from './fault-cli.steps';
import { FAULT_FAMILIES, FAULT_FAMILY_IDS, type FaultFamilyId } from './fault-families';
import { CASE_TIMEOUTS, MALFORMED_OUTPUT_CASES, type FaultCase, type FaultCaseKit, type FaultExpectation } from './malformed-output.cases';

const RUN_MARKER = 'SWITCHYARD_FAULT_RUN';
const MISSING_CLI = 'switchyard-fault-cli-that-does-not-exist';
const KNOWN_ERROR_CODES: ReadonlySet<string> = new Set(Object.values(AGENT_RUN_ERROR_CODES));

export interface FaultCaseRun {
  readonly result: AgentRunResult;
  readonly messages: readonly AgentMessage[];
  /** Messages that fail `agentMessageSchema`, with the reason. */
  readonly invalidMessages: ReadonlyArray<{ readonly message: string; readonly issue: string }>;
  /** Processes of this run (found by a marker in their environment) still alive after the result. */
  readonly leftoverPids: readonly number[];
}

/** One (family × case) of the table. */
export interface FaultCaseRow {
  readonly family: FaultFamilyId;
  readonly faultCase: FaultCase;
  readonly steps: readonly FaultStep[];
  readonly expected: FaultExpectation;
}

function kitFor(family: FaultFamilyId): FaultCaseKit {
  const frames = FAULT_FAMILIES[family].frames();
  return { family, frames, opening: () => [...frames.session(), ...frames.text('hello from the fault CLI')] };
}

/** Every (family × case) that applies: a case a family cannot express is left out. */
export function faultCaseRows(): FaultCaseRow[] {
  const rows: FaultCaseRow[] = [];
  for (const family of FAULT_FAMILY_IDS) {
    for (const faultCase of MALFORMED_OUTPUT_CASES) {
      const script = faultCase.script(kitFor(family));
      if (!script) continue;
      const handshake = faultCase.handshake ?? true ? FAULT_FAMILIES[family].handshake : [];
      rows.push({
        family,
        faultCase,
        steps: [...handshake, ...script],
        expected: faultCase.expectFor?.[family] ?? faultCase.expect,
      });
    }
  }
  return rows;
}

const FAMILIES_AT_ONCE = 5;
const SPAWN_GAP_MS = 10;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// Spawning blocks the event loop; a burst of them starves the pipes of runs already going, and the
// runner drops what a CLI wrote when stdout is not read within 1 s of its exit (see the report of
// issue 8). So runs start one at a time, with the event loop free in between.
let spawnTurn: Promise<void> = Promise.resolve();
async function oneSpawnAtATime<T>(spawn: () => Promise<T>): Promise<T> {
  const previous = spawnTurn;
  let release = (): void => undefined;
  spawnTurn = new Promise((resolve) => (release = resolve));
  await previous;
  try {
    return await spawn();
  } finally {
    setTimeout(release, SPAWN_GAP_MS);
  }
}

/**
 * Checked one by one: a message too deep for the schema (stack overflow) counts as invalid too.
 * Yields now and then: a blocked event loop would starve the other runs' pipes.
 */
async function validate(messages: readonly AgentMessage[]): Promise<FaultCaseRun['invalidMessages']> {
  const invalid: Array<{ message: string; issue: string }> = [];
  for (const [index, message] of messages.entries()) {
    if (index % 500 === 499) await yieldToEventLoop();
    try {
      const parsed = agentMessageSchema.safeParse(message);
      if (!parsed.success) {
        const issue = parsed.error.issues.map((entry) => `${entry.path.join('.') || '(message)'}: ${entry.message}`).join('; ');
        invalid.push({ message: describe(message), issue });
      }
    } catch (error) {
      invalid.push({ message: `${message.type} message`, issue: error instanceof Error ? error.message : String(error) });
    }
  }
  return invalid;
}

function describe(message: AgentMessage): string {
  try {
    return JSON.stringify(message).slice(0, 300);
  } catch {
    return `${message.type} message (not serializable)`;
  }
}

async function collect(messages: AsyncIterable<AgentMessage>): Promise<AgentMessage[]> {
  const collected: AgentMessage[] = [];
  for await (const message of messages) collected.push(message);
  return collected;
}

/** Runs the fault CLI with the row's script through its family's real backend, to the end. */
export async function runFaultCase(row: FaultCaseRow): Promise<FaultCaseRun> {
  const runId = randomUUID();
  const session = await oneSpawnAtATime(() => FAULT_FAMILIES[row.family].createBackend().execute('Say hello', {
    cwd: tmpdir(),
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmpdir(), [RUN_MARKER]: runId },
    executable: row.faultCase.launch === 'missing' ? MISSING_CLI : process.execPath,
    launchArgs: row.faultCase.launch === 'missing' ? [] : [FAULT_CLI_PATH, faultScriptArgument({ ...(row.faultCase.options ? { options: row.faultCase.options } : {}), steps: row.steps })],
    timeouts: { ...CASE_TIMEOUTS, ...row.faultCase.timeouts },
  }));
  const [messages, result] = await Promise.all([collect(session.messages), session.result]);
  return { result, messages, invalidMessages: await validate(messages), leftoverPids: processesWithEnvironment(`${RUN_MARKER}=${runId}`) };
}

/** Whether a run said something about the bad output it met. */
const surfacesBadOutput = (messages: readonly AgentMessage[]): boolean => messages.some((message) => message.type === 'log' || message.type === 'error');

export interface FaultVerdict {
  /** `completed`, or `<status> <code>` of a run that did not complete. */
  readonly outcome: string;
  /** For a run that completed despite bad output: whether a message told of it. */
  readonly surfaced: boolean | 'not asked';
  /** For a run that did not complete: its error message, when the message is empty or not text. */
  readonly errorProblem: string | undefined;
  readonly invalidMessages: FaultCaseRun['invalidMessages'];
  readonly leftoverPids: readonly number[];
  /** What the case's own check found wrong. */
  readonly checkProblem: string | undefined;
  /** Only when the outcome is not the expected one: what the run looked like, to tell why. */
  readonly detail?: unknown;
}

function describeRun(run: FaultCaseRun): unknown {
  const { exitCode, exitSignal, durationMs, diagnostics, error } = run.result;
  return { exitCode, exitSignal, durationMs, diagnostics, errorMessage: error?.message, stderrTail: error?.stderrTail.slice(-300), messages: run.messages.slice(0, 8).map(describe) };
}

/** What the run did and what the row expects, side by side for one `toEqual`. */
export function judgeFaultCase(row: FaultCaseRow, run: FaultCaseRun): { readonly actual: FaultVerdict; readonly expected: FaultVerdict } {
  const { error, status } = run.result;
  const outcome = error ? `${status} ${error.code}` : status;
  const expectedOutcome =
    row.expected.status === 'completed'
      ? 'completed'
      : `${row.expected.status} ${error && row.expected.codes.includes(error.code) ? error.code : row.expected.codes.join(' or ')}`;
  const asksSurfaced = row.expected.status === 'completed' && row.expected.surfaced;
  const errorProblem =
    error === undefined
      ? undefined
      : !KNOWN_ERROR_CODES.has(error.code)
        ? `code ${String(error.code)} is not in AGENT_RUN_ERROR_CODES`
        : typeof error.message !== 'string' || error.message.trim() === ''
          ? `message ${JSON.stringify(error.message)} is not a text`
          : undefined;
  return {
    actual: {
      outcome,
      surfaced: asksSurfaced ? surfacesBadOutput(run.messages) : 'not asked',
      errorProblem,
      invalidMessages: run.invalidMessages,
      leftoverPids: run.leftoverPids,
      checkProblem: row.faultCase.check?.(run),
      ...(outcome === expectedOutcome ? {} : { detail: describeRun(run) }),
    },
    expected: { outcome: expectedOutcome, surfaced: asksSurfaced ? true : 'not asked', errorProblem: undefined, invalidMessages: [], leftoverPids: [], checkProblem: undefined },
  };
}

/** Runs every family of one case at once and returns, by family, what happened and what should have. */
export async function judgeCaseInEveryFamily(rows: readonly FaultCaseRow[]): Promise<{ readonly actual: Record<string, unknown>; readonly expected: Record<string, unknown> }> {
  const judge = async (row: FaultCaseRow): Promise<{ row: FaultCaseRow; actual: FaultVerdict; expected: FaultVerdict }> => ({ row, ...judgeFaultCase(row, await runFaultCase(row)) });
  const judged: Array<{ row: FaultCaseRow; actual: FaultVerdict; expected: FaultVerdict }> = [];
  const atOnce = rows.some((row) => row.faultCase.heavy) ? 1 : FAMILIES_AT_ONCE;
  for (let start = 0; start < rows.length; start += atOnce) judged.push(...(await Promise.all(rows.slice(start, start + atOnce).map(judge))));
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const { row, actual: verdict, expected: wanted } of judged) {
    actual[row.family] = verdict;
    expected[row.family] = wanted;
  }
  return { actual, expected };
}
