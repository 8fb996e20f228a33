import { randomUUID } from 'node:crypto';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext, TranslatorResult } from '../backend/translator.types';
import { buildDshCancelCommand, buildDshExecuteCommand, dshLine, parseDshModelId } from './dsh-command.builder';
import { createDshEventTranslator } from './dsh-event.translator';
import { DSH_DEFAULT_PROFILE, type DshMcpServer, type DshModelSelection } from './dsh-wire.types';

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
      const requestId = (backendOptions.createRequestId ?? randomUUID)();
      const ready = latch();
      const ended = latch();
      let processInput: AgentProcessInput | undefined;
      let context: TranslatorContext | undefined;
      let executeSent = false;
      let requestEnded = false;
      let cancelling = false;

      const endRequest = (): void => {
        requestEnded = true;
        ended.open();
      };
      // A write error means DSH is gone; its exit is reported by the result.
      const sendCancel = (): void => {
        if (executeSent && processInput) void processInput.writeStdin(dshLine(buildDshCancelCommand(requestId))).catch(() => undefined);
      };

      const createTranslator = (translatorContext: TranslatorContext): Translator => {
        context = translatorContext;
        const observed: TranslatorContext = {
          ...translatorContext,
          reportResult: (result: TranslatorResult) => {
            endRequest();
            translatorContext.reportResult(result);
          },
        };
        return createDshEventTranslator(observed, {
          requestId,
          ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
          onReady: ready.open,
          // Before the translator reports the failure (which closes stdin), so the frame still goes out.
          onProtocolFailure: sendCancel,
          onCancelled: () => {
            endRequest();
            void session.cancel();
          },
        });
      };

      // Called once `createAgentSession` returned, as are the translator's hooks: `session` is set.
      const start = async (input: AgentProcessInput): Promise<void> => {
        processInput = input;
        if (settings.readyTimeoutMs > 0) {
          const exited = session.result.then(() => 'exited' as const);
          const waited = await firstOf<unknown>([ready.promise, ended.promise, exited], settings.readyTimeoutMs);
          if (waited === 'exited') return;
          if (waited === 'timeout') {
            context?.emit({ type: 'log', level: 'warn', text: `dsh sent no ready frame within ${settings.readyTimeoutMs} ms; sending the request anyway` });
          }
        }
        if (requestEnded || cancelling) return;
        executeSent = true;
        await input.writeStdin(
          dshLine(
            buildDshExecuteCommand({
              requestId,
              cwd: options.cwd,
              prompt,
              ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
              ...(model ? { model } : {}),
              ...(backendOptions.reasoningEffort ? { reasoningEffort: backendOptions.reasoningEffort } : {}),
              ...(backendOptions.mcpServers ? { mcpServers: backendOptions.mcpServers } : {}),
            }),
          ),
        );
      };

      const session = createAgentSession({
        run: options,
        adapterArgs: ['--profile', profile, '--stdio'],
        createTranslator,
        lineFormat: 'json',
        start,
        endStdinOnResult: true,
      });

      return Promise.resolve({
        ...session,
        cancel: async (): Promise<void> => {
          cancelling = true;
          if (executeSent && !requestEnded) {
            sendCancel();
            await firstOf<unknown>([ended.promise, session.result], settings.cancelGraceMs);
          }
          await session.cancel();
        },
      });
    },
  };
}
