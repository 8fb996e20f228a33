import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { codexThinking } from './codex-thinking';
import type { JsonObject } from '../mcp/mcp-server.types';
import { codexMcpThreadConfig } from './codex-mcp.config';
import { createCodexMcpStartupTracker, type CodexMcpStartupTracker } from './codex-mcp-startup.tracker';
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
  /** How long the turn waits for the thread's MCP servers to start (Codex's own default startup timeout is 10 s). */
  readonly mcpStartupWaitMs?: number;
}

const DEFAULT_MCP_STARTUP_WAIT_MS = 30_000;

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

/** What one run learns as it goes: the process input, the translator's context, the thread and turn ids. */
interface CodexRunState {
  input: AgentProcessInput | undefined;
  context: TranslatorContext | undefined;
  threadId: string | undefined;
  turnId: string | undefined;
  readonly mcpStartup: CodexMcpStartupTracker;
}

/** One run: what it was asked, the JSON-RPC connection to the app-server, and its state. */
interface CodexRun {
  readonly backendOptions: CodexAppServerBackendOptions;
  readonly run: BackendExecuteOptions;
  readonly prompt: string;
  readonly threadParameters: {
    readonly cwd: string;
    readonly approvalPolicy: CodexApprovalPolicy;
    readonly sandbox: CodexSandboxMode;
    readonly model?: string;
    /** Per-thread config overrides: the agent's MCP servers. */
    readonly config?: { readonly mcp_servers: JsonObject };
  };
  readonly connection: JsonRpcConnection;
  readonly state: CodexRunState;
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
      const thinking = resolveThinking(options.thinkingLevel, codexThinking);
      const state: CodexRunState = { input: undefined, context: undefined, threadId: undefined, turnId: undefined, mcpStartup: createCodexMcpStartupTracker() };
      const codex: CodexRun = {
        backendOptions,
        run: options,
        prompt,
        threadParameters: { cwd: options.cwd, approvalPolicy, sandbox, ...(options.model ? { model: options.model } : {}), ...codexMcpThreadConfig(options.mcp) },
        connection: connectToAppServer(state),
        state,
      };
      const session = createAgentSession({
        run: options,
        adapterArgs: ['app-server', ...thinking.args],
        createTranslator: (translatorContext) => createFrameTranslator(codex, translatorContext),
        lineFormat: 'json',
        start: () => startTurn(codex),
        endStdinOnResult: true,
        capabilities: (processInput: AgentProcessInput) => {
          state.input = processInput;
          return { interrupt: () => interruptTurn(codex) };
        },
      });
      void session.result.then((result) => codex.connection.close(`codex app-server exited (${result.exitSignal ?? `code ${String(result.exitCode)}`})`));
      return Promise.resolve(withOpeningNotes(session, thinking.notes));
    },
  };
}

function connectToAppServer(state: CodexRunState): JsonRpcConnection {
  return createJsonRpcConnection({
    // A failed write means the process is gone (or never started): a closed connection, whose
    // story the exit tells (`cli_not_found`, `cli_exited_nonzero`), not a failure Codex reported.
    write: (line) =>
      state.input
        ? state.input.writeStdin(line).catch((error: unknown) => {
            throw new JsonRpcConnectionClosedError('codex app-server does not read its stdin', { cause: error });
          })
        : Promise.reject(new Error('codex app-server is not running yet')),
    onRequest: answerServerRequest,
    onNotification: (method, params) => {
      state.mcpStartup.onNotification(method, params);
      if (method === 'turn/started') state.turnId = (params as { turn?: { id?: string } }).turn?.id ?? state.turnId;
    },
  });
}

/** Every frame goes to the connection; all but Codex's own requests are translated too. */
function createFrameTranslator(codex: CodexRun, translatorContext: TranslatorContext): Translator {
  codex.state.context = translatorContext;
  const translate = createCodexEventTranslator(translatorContext);
  return (frame: unknown) => {
    const serverRequest = isServerRequest(frame);
    codex.connection.receive(frame);
    if (serverRequest) return;
    translate(frame);
  };
}

/** `initialize`, the thread (started or resumed), then the turn with the prompt. */
async function startTurn(codex: CodexRun): Promise<void> {
  const { connection, backendOptions, run, state, threadParameters } = codex;
  let method = 'initialize';
  try {
    await connection.request('initialize', {
      clientInfo: { name: backendOptions.clientName ?? 'switchyard', title: 'Switchyard', version: backendOptions.clientVersion ?? '0.0.0' },
    });
    await connection.notify('initialized');
    method = run.resumeSessionId ? 'thread/resume' : 'thread/start';
    const opened = run.resumeSessionId
      ? await connection.request<CodexThreadResponse>('thread/resume', { threadId: run.resumeSessionId, excludeTurns: true, ...threadParameters })
      : await connection.request<CodexThreadResponse>('thread/start', threadParameters);
    const threadId = opened.thread.id;
    state.threadId = threadId;
    await awaitMcpServers(codex);
    method = 'turn/start';
    const started = await connection.request<CodexTurnResponse>('turn/start', { threadId, input: [{ type: 'text', text: codex.prompt }] });
    state.turnId ??= started.turn.id;
  } catch (error) {
    failRun(codex, error, method);
  }
}

/** The thread's MCP servers start in the background: the turn waits for them, and names those not ready. */
async function awaitMcpServers(codex: CodexRun): Promise<void> {
  const { mcp } = codex.run;
  if (mcp?.kind !== 'codex-thread-config' || mcp.serverNames.length === 0) return;
  const notReady = await codex.state.mcpStartup.settled({ names: mcp.serverNames, timeoutMs: codex.backendOptions.mcpStartupWaitMs ?? DEFAULT_MCP_STARTUP_WAIT_MS });
  if (notReady.length === 0) return;
  const servers = notReady.map((server) => `${server.name} (${server.state}${server.error ? `: ${server.error}` : ''})`).join(', ');
  codex.state.context?.emit({ type: 'log', level: 'warn', text: `MCP servers not ready when the turn started: ${servers}` });
}

async function interruptTurn(codex: CodexRun): Promise<void> {
  const { threadId, turnId } = codex.state;
  if (!threadId || !turnId) throw new Error('no Codex turn is running yet');
  await codex.connection.request('turn/interrupt', { threadId, turnId });
}

/** A request the run cannot go on without failed: say why and let the process exit. */
function failRun(codex: CodexRun, error: unknown, method: string): void {
  const { context } = codex.state;
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
}
