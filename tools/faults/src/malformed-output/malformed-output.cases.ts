import type { AgentRunErrorCode, AgentRunTimeouts } from '@switchyard/agent-adapters';
import { bytesStep, type FaultScriptOptions, type FaultStep } from './fault-cli.steps';
import type { FaultFamilyId, FaultFrames } from './fault-families';
import type { FaultCaseRun } from './malformed-output.spec-helper';

/** What a run of the case must end as. */
export type FaultExpectation =
  /** `surfaced`: a `log` or `error` message tells of the bad output (the run recovered from it). */
  | { readonly status: 'completed'; readonly surfaced: boolean }
  | { readonly status: 'failed' | 'timeout'; readonly codes: readonly AgentRunErrorCode[] };

export interface FaultCaseKit {
  readonly family: FaultFamilyId;
  readonly frames: FaultFrames;
  /** How a normal run begins: the session, then a line of text. */
  opening(): FaultStep[];
}

export interface FaultCase {
  readonly id: string;
  /** The steps after the family's handshake; `undefined` when the family cannot express the fault. */
  readonly script: (kit: FaultCaseKit) => FaultStep[] | undefined;
  /** `false`: the fault comes before the protocol starts (no handshake). */
  readonly handshake?: boolean;
  /** `missing`: the executable does not exist on PATH. */
  readonly launch?: 'missing';
  readonly options?: FaultScriptOptions;
  /** Over `CASE_TIMEOUTS`; hang cases use `HANG_TIMEOUTS`. */
  readonly timeouts?: AgentRunTimeouts;
  readonly expect: FaultExpectation;
  readonly expectFor?: Partial<Record<FaultFamilyId, FaultExpectation>>;
  /** Heavy on the test process (MBs through its pipes): run alone, the families one after another. */
  readonly heavy?: boolean;
  /** A case-specific check on the finished run: what is wrong, or `undefined`. */
  readonly check?: (run: FaultCaseRun) => string | undefined;
}

/** Generous: a case that should end on its own never meets them, even on a loaded machine. */
export const CASE_TIMEOUTS: AgentRunTimeouts = { idleMs: 30_000, toolBudgetMs: 30_000, totalMs: 90_000, exitGraceMs: 1000 };
/**
 * Small, for the cases that only a watchdog ends; yet above a fake CLI's start on a loaded machine
 * (its first line must come before the idle deadline, or a tool call opens too late to count).
 */
export const HANG_TIMEOUTS: AgentRunTimeouts = { idleMs: 4000, toolBudgetMs: 6000, totalMs: 90_000, exitGraceMs: 1000 };

const MEBIBYTE = 1024 * 1024;
const GARBAGE_LINE: FaultStep = { out: 'this is not JSON at all, just a CLI talking\n' };
const INVALID_UTF8_MARKER = 'INVALID-UTF8-HERE';
const INVALID_UTF8_BYTES = [0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xa0, 0xed, 0xa0, 0x80];
const TRICKLED_TEXT = 'héllo ✓ 🎉 — trickled';

const failed = (...codes: AgentRunErrorCode[]): FaultExpectation => ({ status: 'failed', codes });
const timedOut = (...codes: AgentRunErrorCode[]): FaultExpectation => ({ status: 'timeout', codes });
const completed = (surfaced: boolean): FaultExpectation => ({ status: 'completed', surfaced });

/** A `frame` step as the raw line the fault CLI would write (plain `\n`, no BOM). */
const rawLine = (step: FaultStep): string => ('frame' in step ? `${JSON.stringify(step.frame, null, step.pretty ? 2 : undefined)}\n` : '');

/** Every `frame` step of `steps` with `marker` (inside a JSON string) replaced by raw bytes. */
function withRawBytes(steps: FaultStep[], marker: string, bytes: readonly number[]): FaultStep[] {
  return steps.map((step) => {
    const line = rawLine(step);
    if (!line.includes(marker)) return step;
    const [before, after] = [line.slice(0, line.indexOf(marker)), line.slice(line.indexOf(marker) + marker.length)];
    return { outBase64: Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]).toString('base64') };
  });
}

/** Every tool input `{"command":"ls"}` of the frames replaced by `depth` nested arrays; `undefined` when there is none. */
export function withDeepToolInput(steps: FaultStep[] | undefined, depth: number): FaultStep[] | undefined {
  // As a JSON value, or as JSON text inside a string (DSH); nested arrays need no escaping.
  const inputs = [JSON.stringify({ command: 'ls' }), JSON.stringify(JSON.stringify({ command: 'ls' })).slice(1, -1)];
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepen = (line: string): string => inputs.reduce((text, input) => text.replace(input, deep), line);
  if (!steps?.some((step) => deepen(rawLine(step)) !== rawLine(step))) return undefined;
  return steps.map((step) => (deepen(rawLine(step)) !== rawLine(step) ? { out: deepen(rawLine(step)) } : step));
}

const hasText = (run: FaultCaseRun, text: string): boolean => run.messages.some((message) => message.type === 'text' && message.text.includes(text));

const defined = (...parts: Array<FaultStep[] | undefined>): FaultStep[] | undefined => (parts.some((part) => part === undefined) ? undefined : parts.flat() as FaultStep[]);

/**
 * The corpus: bad CLI behaviour every protocol family's backend must survive. Each case is written
 * in abstract moves (`opening`, `result`, ...) that each family renders in its own frames.
 */
export const MALFORMED_OUTPUT_CASES: readonly FaultCase[] = [
  // Lines that are not JSON.
  {
    id: 'non-JSON line among valid frames, then a result',
    script: (kit) => [...kit.opening(), GARBAGE_LINE, ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: 'only non-JSON lines (prose, an ANSI spinner), exit 0',
    script: () => [GARBAGE_LINE, { out: '\u001b[2K\u001b[1G⠋ Thinking...\r⠙ Thinking...\n' }, { out: 'Error: something went wrong\n' }],
    expect: failed('malformed_output'),
  },
  {
    id: 'valid frames, then garbage, exit 0 without a result',
    script: (kit) => [...kit.opening(), GARBAGE_LINE, { out: '}{][\n' }],
    expect: failed('malformed_output'),
  },
  {
    id: 'result, then garbage',
    script: (kit) => [...kit.opening(), ...kit.frames.result(), GARBAGE_LINE, { out: '{"truncated": \n' }],
    expect: completed(true),
  },
  // Broken JSON.
  {
    id: 'truncated JSON line, then a result',
    script: (kit) => [...kit.opening(), { out: '{"type":"assistant","message":{"content":[{"type":"text","te\n' }, ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: 'truncated JSON at exit (no newline)',
    script: (kit) => [...kit.opening(), { out: '{"type":"result","subtype":"succ' }],
    expect: failed('malformed_output'),
    // OpenClaw's reply may span lines, so an unclosed document is waited on; at the end it is dropped
    // without a diagnostic (a translator sees no end of stream), and the run fails as without result.
    expectFor: { openclaw: failed('cli_exited_without_result') },
  },
  {
    id: 'deeply nested JSON (100 000 levels), then a result',
    script: (kit) => [...kit.opening(), { deep: { depth: 100_000 } }, ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: 'JSON that is no object (array, null, number, string, boolean), then a result',
    script: (kit) => [...kit.opening(), { out: '[{"type":"result","subtype":"success"}]\n[]\nnull\n42\n"a string"\ntrue\n' }, ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: 'tool input nested 10 000 levels deep in a known event, then a result',
    script: (kit) => defined(kit.opening(), withDeepToolInput(kit.frames.toolUse('call-deep'), 10_000), kit.frames.toolResult('call-deep'), kit.frames.result()),
    expect: completed(false),
  },
  {
    id: 'known event types with wrong-typed fields, then a result',
    script: (kit) => [...kit.opening(), ...kit.frames.wrongTypes(), ...kit.frames.text('after the wrong types'), ...kit.frames.result()],
    expect: completed(true),
    // An OpenCode `error` event ends the run as failed whatever its fields hold (the unreadable
    // message itself is dropped, and said so, as the other wrong-typed fields are).
    expectFor: { opencode: failed('cli_reported_failure') },
  },
  // Size.
  {
    id: '20 MB line, exit 0 without a result',
    heavy: true,
    script: (kit) => [...kit.opening(), { bigLine: { bytes: 20 * MEBIBYTE, head: '{"type":"assistant","text":"', tail: '"}' } }],
    expect: failed('output_line_too_long'),
  },
  {
    id: '11 MB line (over the 10 MiB cap) among valid frames, then a result',
    heavy: true,
    script: (kit) => [...kit.opening(), { bigLine: { bytes: 11 * MEBIBYTE, head: '{"type":"assistant","text":"', tail: '"}' } }, ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: '20 000 tiny non-JSON lines, then a result',
    heavy: true,
    script: (kit) => [...kit.opening(), { repeat: { text: 'x\n', times: 20_000 } }, ...kit.frames.result()],
    expect: completed(true),
    check: (run) => (run.result.diagnostics.malformedLines >= 20_000 ? undefined : `only ${run.result.diagnostics.malformedLines} malformed lines counted`),
  },
  // Bytes and encodings.
  {
    id: 'invalid UTF-8 inside a JSON string, then a result',
    script: (kit) => withRawBytes([...kit.frames.session(), ...kit.frames.text(`bad bytes ${INVALID_UTF8_MARKER} end`), ...kit.frames.result()], INVALID_UTF8_MARKER, INVALID_UTF8_BYTES),
    expect: completed(false),
    check: (run) => (hasText(run, '\uFFFD') ? undefined : 'no text message with U+FFFD where the invalid bytes were'),
  },
  {
    id: 'invalid UTF-8 and NUL bytes as a line, exit 0 without a result',
    script: (kit) => [...kit.opening(), bytesStep([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x00, 0x00, 0x0a])],
    expect: failed('malformed_output'),
  },
  {
    id: 'escaped NUL inside text, then a result',
    script: (kit) => [...kit.frames.session(), ...kit.frames.text('before\u0000after'), ...kit.frames.result()],
    expect: completed(false),
  },
  {
    id: 'UTF-8 BOM in front of every line',
    options: { bom: true },
    script: (kit) => [...kit.opening(), ...kit.frames.result()],
    expect: completed(false),
  },
  {
    id: 'CRLF line endings',
    options: { eol: '\r\n' },
    script: (kit) => [...kit.opening(), ...kit.frames.result()],
    expect: completed(false),
  },
  {
    id: 'lines of only whitespace among valid frames, then a result',
    script: (kit) => [...kit.opening(), { out: '   \t  \n\n \r\n\t\n' }, ...kit.frames.result()],
    expect: completed(false),
  },
  {
    id: 'frames trickled one byte per write (multi-byte characters split)',
    script: (kit) => [...[...kit.frames.session(), ...kit.frames.text(TRICKLED_TEXT)].map((step) => ({ trickle: { text: rawLine(step), delayMs: 0 } })), ...kit.frames.result()],
    expect: completed(false),
    check: (run) => (hasText(run, TRICKLED_TEXT) ? undefined : 'the trickled text did not arrive whole'),
  },
  {
    id: 'result line without a trailing newline',
    script: (kit) => {
      const result = kit.frames.result();
      // A JSON-RPC reply is written by the fake with its newline; the case needs a plain frame.
      if (!result.every((step) => 'frame' in step)) return undefined;
      return [...kit.opening(), ...result.slice(0, -1), { out: rawLine(result[result.length - 1]!).trimEnd() }];
    },
    expect: completed(false),
  },
  // Events the adapter does not know or cannot pair.
  {
    id: 'unknown event type, then a result',
    script: (kit) => [...kit.opening(), ...kit.frames.unknownEvent(), ...kit.frames.result()],
    expect: completed(true),
  },
  {
    id: 'only unknown event types, exit 0',
    script: (kit) => [...kit.frames.unknownEvent(), ...kit.frames.unknownEvent()],
    expect: failed('malformed_output'),
    // Copilot's schema lists hundreds of event types: an unfamiliar one is a debug log, not malformed.
    expectFor: { copilot: failed('cli_exited_without_result') },
  },
  {
    id: 'tool result without a tool use, then a result',
    script: (kit) => defined(kit.opening(), kit.frames.toolResult('call-never-started'), kit.frames.text('carried on'), kit.frames.result()),
    expect: completed(false),
  },
  {
    id: 'CLI reports a failed run',
    script: (kit) => [...kit.opening(), ...kit.frames.failedResult('the model refused')],
    expect: failed('cli_reported_failure'),
  },
  // Exits.
  {
    id: 'exit 0 without a result',
    script: (kit) => [...kit.opening()],
    expect: failed('cli_exited_without_result'),
  },
  {
    id: 'tool call open, exit 0 without a result',
    script: (kit) => defined(kit.opening(), kit.frames.toolUse('call-open')),
    expect: failed('cli_exited_without_result'),
  },
  {
    id: 'killed by a signal mid-run',
    script: (kit) => [...kit.opening(), { signal: 'SIGKILL' }],
    expect: failed('cli_exited_nonzero'),
  },
  {
    id: 'killed by a signal after its result',
    script: (kit) => [...kit.opening(), ...kit.frames.result(), { sleep: 100 }, { signal: 'SIGSEGV' }],
    expect: completed(false),
    // OpenCode prints no result event: its finished stream only counts with a clean exit.
    expectFor: { opencode: failed('cli_exited_nonzero') },
  },
  {
    id: 'exits non-zero at start (stderr only)',
    handshake: false,
    script: () => [{ err: 'fatal: unknown option --fault' }, { exit: 2 }],
    expect: failed('cli_exited_nonzero'),
  },
  {
    id: 'exits 127 at start (its own dependency is missing)',
    handshake: false,
    script: () => [{ err: 'fault-cli: node-helper: command not found' }, { exit: 127 }],
    expect: failed('cli_exited_nonzero'),
  },
  {
    id: 'CLI missing from PATH',
    launch: 'missing',
    handshake: false,
    script: () => [],
    expect: failed('cli_not_found'),
  },
  {
    id: 'grandchild keeps stdout open after the CLI exits without a result',
    script: (kit) => [...kit.opening(), { spawnGrandchild: { holdStdout: true } }],
    expect: failed('cli_exited_without_result'),
  },
  // Stderr.
  {
    id: 'stderr flood (5 MB), then exit non-zero',
    heavy: true,
    script: (kit) => [...kit.opening(), { stderrFlood: { lines: 50_000 } }, { exit: 1 }],
    expect: failed('cli_exited_nonzero'),
    check: (run) => ((run.result.error?.stderrTail.length ?? 0) <= 64 * 1024 + 200 ? undefined : `a stderr tail of ${run.result.error?.stderrTail.length} characters`),
  },
  {
    id: 'stderr flood (5 MB) during a run that ends with a result',
    heavy: true,
    script: (kit) => [...kit.opening(), { stderrFlood: { lines: 50_000 } }, ...kit.frames.result()],
    expect: completed(false),
  },
  // Hangs: only a watchdog ends these.
  {
    id: 'hangs silently from the start',
    handshake: false,
    timeouts: HANG_TIMEOUTS,
    script: () => [{ hang: true }],
    expect: timedOut('idle_timeout'),
  },
  {
    id: 'hangs after valid frames',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => [...kit.opening(), { hang: true }],
    expect: timedOut('idle_timeout'),
  },
  {
    id: 'hangs in the middle of a line',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => [...kit.opening(), { out: '{"type":"assist' }, { hang: true }],
    expect: timedOut('idle_timeout'),
  },
  {
    id: 'hangs with a tool call open',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => defined(kit.opening(), kit.frames.toolUse('call-hanging'), [{ hang: true }]),
    expect: timedOut('tool_timeout'),
  },
  {
    id: 'hangs ignoring SIGTERM',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => [{ ignoreSigterm: true }, ...kit.opening(), { hang: true }],
    expect: timedOut('idle_timeout'),
  },
  {
    id: 'closes stdout but stays alive',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => [...kit.opening(), { closeStdout: true }, { hang: true }],
    expect: timedOut('idle_timeout'),
  },
  {
    id: 'closes stdout after its result but stays alive',
    timeouts: HANG_TIMEOUTS,
    script: (kit) => [...kit.opening(), ...kit.frames.result(), { closeStdout: true }, { hang: true }],
    expect: completed(false),
    // No result event: nothing tells OpenCode's run apart from a stalled one but the exit.
    expectFor: { opencode: timedOut('idle_timeout') },
  },
];
