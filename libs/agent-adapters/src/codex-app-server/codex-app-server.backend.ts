import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { CODEX_RESUME_REJECTED, createCodexEventTranslator } from './codex-event.translator';
import { CODEX_APPROVAL_REQUESTS, type CodexApprovalPolicy, type CodexSandboxMode, type CodexThreadResponse, type CodexTurnResponse } from './codex-wire.types';
import {
  createJsonRpcConnection,
  JSON_RPC_ERROR_CODES,
  JsonRpcConnectionClosedError,
  JsonRpcRemoteError,
  describeJsonRpcError,
  type JsonRpcConnection,
} from '../json-rpc/json-rpc.connection';

export interface CodexAppServerBackendOptions {
  /** Sent with `thread/start` / `thread/resume`; approval requests are accepted either way. */
  readonly approvalPolicy?: CodexApprovalPolicy;
  readonly sandbox?: CodexSandboxMode;
  /** How the client names itself in `initialize` (Codex puts it in its user agent). */
  readonly clientName?: string;
  readonly clientVersion?: string;
}

const isResumeRejection = (error: unknown): error is JsonRpcRemoteError =>
  error instanceof JsonRpcRemoteError && error.code === JSON_RPC_ERROR_CODES.invalidRequest && CODEX_RESUME_REJECTED.test(error.message);

/** A request from Codex (it has a method and an id), answered by the connection, not translated. */
const isServerRequest = (frame: unknown): boolean =>
  typeof frame === 'object' && frame !== null && typeof (frame as { method?: unknown }).method === 'string' && (frame as { id?: unknown }).id != null;

/** Answers Codex's server requests: approvals per policy (accept), anything else is unsupported. */
function answerServerRequest(method: string): unknown {
  if (Object.hasOwn(CODEX_APPROVAL_REQUESTS, method)) return CODEX_APPROVAL_REQUESTS[method as keyof typeof CODEX_APPROVAL_REQUESTS];
  throw new JsonRpcRemoteError(method, { code: JSON_RPC_ERROR_CODES.methodNotFound, message: `switchyard does not handle ${method}` });
}

/**
 * Codex as a JSON-RPC app-server over stdio, one turn per process: `initialize` → `initialized` →
 * `thread/start` (or `thread/resume`) → `turn/start`; the process exits once `turn/completed`
 * closes stdin. The thread id is the session id. `CODEX_HOME` (see `writeCodexHome`) and the API
 * key variable come with the run's env.
 */
export function createCodexAppServerBackend(backendOptions: CodexAppServerBackendOptions = {}): Backend {
  const approvalPolicy = backendOptions.approvalPolicy ?? 'never';
  const sandbox = backendOptions.sandbox ?? 'danger-full-access';

  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      let input: AgentProcessInput | undefined;
      let context: TranslatorContext | undefined;
      let threadId: string | undefined;
      let turnId: string | undefined;

      const connection: JsonRpcConnection = createJsonRpcConnection({
        // A failed write means the process is gone (or never started): a closed connection, whose
        // story the exit tells (`cli_not_found`, `cli_exited_nonzero`), not a failure Codex reported.
        write: (line) =>
          input
            ? input.writeStdin(line).catch((error: unknown) => {
                throw new JsonRpcConnectionClosedError('codex app-server does not read its stdin', { cause: error });
              })
            : Promise.reject(new Error('codex app-server is not running yet')),
        onRequest: answerServerRequest,
        onNotification: (method, params) => {
          if (method === 'turn/started') turnId = (params as { turn?: { id?: string } }).turn?.id ?? turnId;
        },
      });

      const createTranslator = (translatorContext: TranslatorContext): Translator => {
        context = translatorContext;
        const translate = createCodexEventTranslator(translatorContext);
        return (frame: unknown) => {
          const serverRequest = isServerRequest(frame);
          connection.receive(frame);
          if (serverRequest) return;
          translate(frame);
        };
      };

      /** A request the run cannot go on without failed: say why and let the process exit. */
      const failRun = (error: unknown, method: string): void => {
        if (error instanceof JsonRpcConnectionClosedError || !context) return; // the exit tells the story
        // Codex's own words for a refused request; the method is named separately below.
        const message = error instanceof JsonRpcRemoteError ? describeJsonRpcError(error.error) : error instanceof Error ? error.message : String(error);
        if (method === 'thread/resume' && isResumeRejection(error)) {
          context.reportResumeRejected();
          context.emit({ type: 'error', code: 'codex_resume_rejected', message });
        } else {
          context.emit({ type: 'error', code: 'codex_request_failed', message: `${method} failed: ${message}` });
        }
        context.reportResult({ status: 'failed', errorMessage: message });
      };

      const threadParameters = {
        cwd: options.cwd,
        approvalPolicy,
        sandbox,
        ...(options.model ? { model: options.model } : {}),
      };

      const start = async (): Promise<void> => {
        let method = 'initialize';
        try {
          await connection.request('initialize', {
            clientInfo: { name: backendOptions.clientName ?? 'switchyard', title: 'Switchyard', version: backendOptions.clientVersion ?? '0.0.0' },
          });
          await connection.notify('initialized');
          method = options.resumeSessionId ? 'thread/resume' : 'thread/start';
          const opened = options.resumeSessionId
            ? await connection.request<CodexThreadResponse>('thread/resume', { threadId: options.resumeSessionId, excludeTurns: true, ...threadParameters })
            : await connection.request<CodexThreadResponse>('thread/start', threadParameters);
          threadId = opened.thread.id;
          method = 'turn/start';
          const started = await connection.request<CodexTurnResponse>('turn/start', { threadId, input: [{ type: 'text', text: prompt }] });
          turnId ??= started.turn.id;
        } catch (error) {
          failRun(error, method);
        }
      };

      const session = createAgentSession({
        run: options,
        adapterArgs: ['app-server'],
        createTranslator,
        lineFormat: 'json',
        start,
        endStdinOnResult: true,
        capabilities: (processInput: AgentProcessInput) => {
          input = processInput;
          return {
            interrupt: async (): Promise<void> => {
              if (!threadId || !turnId) throw new Error('no Codex turn is running yet');
              await connection.request('turn/interrupt', { threadId, turnId });
            },
          };
        },
      });
      void session.result.then((result) => connection.close(`codex app-server exited (${result.exitSignal ?? `code ${String(result.exitCode)}`})`));
      return Promise.resolve(session);
    },
  };
}
