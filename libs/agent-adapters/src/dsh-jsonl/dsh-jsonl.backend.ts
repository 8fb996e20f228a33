import { randomUUID } from 'node:crypto';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext, TranslatorResult } from '../backend/translator.types';
import { buildDshCancelCommand, buildDshExecuteCommand, dshLine, parseDshModelId } from './dsh-command.builder';
import { createDshEventTranslator } from './dsh-event.translator';
import { DSH_DEFAULT_PROFILE, type DshMcpServer, type DshModelSelection } from './dsh-wire.types';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { dshThinking } from './dsh-thinking';

export interface DshBackendOptions {
  /** `--profile` DSH runs with (its bundle of tools, prompts and model catalog). */
  readonly profile?: string;
  /** Sent in every execute frame: DSH connects them itself. */
  readonly mcpServers?: readonly DshMcpServer[];
  /** `reasoning_effort` of the execute frame (a level DSH's model catalog advertises). */
  readonly reasoningEffort?: string;
  /** How long to wait for DSH's `ready` before sending the execute frame anyway; `0` does not wait. */
  readonly readyTimeoutMs?: number;
  /** After the cancel frame, how long DSH may take to end the request before its group is killed. */
  readonly cancelGraceMs?: number;
  readonly createRequestId?: () => string;
}

const DEFAULTS = { readyTimeoutMs: 10_000, cancelGraceMs: 3000 } as const;

/** Resolves with the first of `promises` to settle, or `'timeout'`; the timer never outlives it. */
function firstOf<T>(promises: ReadonlyArray<Promise<T>>, timeoutMs: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  return Promise.race([...promises, timeout]).finally(() => clearTimeout(timer));
}

function latch(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

type Latch = ReturnType<typeof latch>;

/** One request: what it was asked, the latches for DSH's ready and the request's end, and how far it got. */
interface DshRun {
  readonly settings: DshBackendOptions & { readonly readyTimeoutMs: number; readonly cancelGraceMs: number };
  readonly profile: string;
  readonly run: BackendExecuteOptions;
  readonly prompt: string;
  readonly model: DshModelSelection | undefined;
  readonly requestId: string;
  readonly ready: Latch;
  readonly ended: Latch;
  processInput: AgentProcessInput | undefined;
  context: TranslatorContext | undefined;
  executeSent: boolean;
  requestEnded: boolean;
  cancelling: boolean;
  session: AgentSession | undefined;
}

/**
 * DSH over its versioned JSONL protocol, one request per process: `dsh --profile <p> --stdio`,
 * then one execute frame on stdin; DSH streams frames back and ends with `result`, after which
 * stdin is closed. The execute frame waits for DSH's `ready` (up to `readyTimeoutMs`), so a DSH of
 * another protocol version is refused before it is handed a prompt and could run tools; a DSH that
 * never says ready still gets the request once the wait is over. Cancel sends the cancel frame,
 * gives DSH `cancelGraceMs` to stop, then ends the process group. Model ids are `provider/model`;
 * any other id rejects `execute` with a `DshInvalidModelError` before anything is spawned.
 */
export function createDshBackend(backendOptions: DshBackendOptions = {}): Backend {
  const settings = { ...DEFAULTS, ...backendOptions };
  const profile = backendOptions.profile ?? DSH_DEFAULT_PROFILE;

  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      let model: DshModelSelection | undefined;
      try {
        model = options.model ? parseDshModelId(options.model) : undefined;
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const dsh: DshRun = {
        settings,
        profile,
        run: options,
        prompt,
        model,
        requestId: (backendOptions.createRequestId ?? randomUUID)(),
        ready: latch(),
        ended: latch(),
        processInput: undefined,
        context: undefined,
        executeSent: false,
        requestEnded: false,
        cancelling: false,
        session: undefined,
      };
      return Promise.resolve(withOpeningNotes(openDshSession(dsh), resolveThinking(options.thinkingLevel, dshThinking).notes));
    },
  };
}

function openDshSession(dsh: DshRun): AgentSession {
  const session = createAgentSession({
    run: dsh.run,
    adapterArgs: ['--profile', dsh.profile, '--stdio'],
    createTranslator: (context) => createObservedTranslator(dsh, context),
    lineFormat: 'json',
    start: (input) => startDshRun(dsh, input),
    endStdinOnResult: true,
  });
  dsh.session = session;
  return { ...session, cancel: () => cancelDshRun(dsh, session) };
}

/** The session is created before DSH can say anything, so its hooks always find it. */
function sessionOf(dsh: DshRun): AgentSession {
  if (!dsh.session) throw new Error('the dsh session is not created yet');
  return dsh.session;
}

function endRequest(dsh: DshRun): void {
  dsh.requestEnded = true;
  dsh.ended.open();
}

// A write error means DSH is gone; its exit is reported by the result.
function sendCancel(dsh: DshRun): void {
  if (dsh.executeSent && dsh.processInput) void dsh.processInput.writeStdin(dshLine(buildDshCancelCommand(dsh.requestId))).catch(() => undefined);
}

/** The DSH translator, with the request's end observed on the way to the session. */
function createObservedTranslator(dsh: DshRun, translatorContext: TranslatorContext): Translator {
  dsh.context = translatorContext;
  const observed: TranslatorContext = {
    ...translatorContext,
    reportResult: (result: TranslatorResult) => {
      endRequest(dsh);
      translatorContext.reportResult(result);
    },
  };
  return createDshEventTranslator(observed, {
    requestId: dsh.requestId,
    ...(dsh.run.resumeSessionId ? { resumeSessionId: dsh.run.resumeSessionId } : {}),
    onReady: dsh.ready.open,
    // Before the translator reports the failure (which closes stdin), so the frame still goes out.
    onProtocolFailure: () => sendCancel(dsh),
    onCancelled: () => {
      endRequest(dsh);
      void sessionOf(dsh).cancel();
    },
  });
}

// Called once `createAgentSession` returned, as are the translator's hooks: the session is set.
async function startDshRun(dsh: DshRun, input: AgentProcessInput): Promise<void> {
  dsh.processInput = input;
  const { readyTimeoutMs } = dsh.settings;
  if (readyTimeoutMs > 0) {
    const exited = sessionOf(dsh).result.then(() => 'exited' as const);
    const waited = await firstOf<unknown>([dsh.ready.promise, dsh.ended.promise, exited], readyTimeoutMs);
    if (waited === 'exited') return;
    if (waited === 'timeout') {
      dsh.context?.emit({ type: 'log', level: 'warn', text: `dsh sent no ready frame within ${readyTimeoutMs} ms; sending the request anyway` });
    }
  }
  if (dsh.requestEnded || dsh.cancelling) return;
  dsh.executeSent = true;
  await input.writeStdin(dshLine(executeCommandOf(dsh)));
}

function executeCommandOf(dsh: DshRun): ReturnType<typeof buildDshExecuteCommand> {
  const { run, settings, model } = dsh;
  return buildDshExecuteCommand({
    requestId: dsh.requestId,
    cwd: run.cwd,
    prompt: dsh.prompt,
    ...(run.resumeSessionId ? { resumeSessionId: run.resumeSessionId } : {}),
    ...(model ? { model } : {}),
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
    ...(settings.mcpServers ? { mcpServers: settings.mcpServers } : {}),
  });
}

async function cancelDshRun(dsh: DshRun, session: AgentSession): Promise<void> {
  dsh.cancelling = true;
  if (dsh.executeSent && !dsh.requestEnded) {
    sendCancel(dsh);
    await firstOf<unknown>([dsh.ended.promise, session.result], dsh.settings.cancelGraceMs);
  }
  await session.cancel();
}
