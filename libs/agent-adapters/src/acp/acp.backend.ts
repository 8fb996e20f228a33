import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AnyMessage,
  type ClientContext,
  type InitializeRequest,
  type McpCapabilities,
  type NewSessionRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { TranslatorContext, Translator } from '../backend/translator.types';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { AcpConnectionClosedError, createAcpClientStream } from './acp-client.stream';
import { createAcpEventTranslator } from './acp-event.translator';
import { acpSessionMcpServers } from './acp-mcp.servers';
import { waitOutGeminiSameMinuteLoad } from './gemini-session.guard';
import { resolveThinking, type ThinkingMapper } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { acpThinking, geminiThinking } from './acp-thinking';

/** How tool permission requests are answered: `allow` picks an allow option (once before always). */
export type AcpPermissionPolicy = 'allow' | 'reject';

export interface AcpBackendOptions {
  /** The arguments that make the CLI speak ACP on stdio, e.g. `['--acp']` for Gemini CLI. */
  readonly adapterArgs: readonly string[];
  /** How the CLI takes a model on its command line; without it `model` is not passed. */
  readonly modelArgs?: (model: string) => readonly string[];
  /** Provider named in usage reports. */
  readonly provider?: string;
  readonly permissionPolicy?: AcpPermissionPolicy;
  /** After a session/load, how long the agent must stay silent before the prompt goes out. */
  readonly resumeQuietMs?: number;
  /** The longest the quiet wait may take. */
  readonly resumeQuietMaxMs?: number;
  /** How long `cancel` waits for the agent to end the turn after session/cancel before killing. */
  readonly cancelGraceMs?: number;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** How the agent takes a thinking level; by default it takes none and the timeline says so. */
  readonly thinking?: ThinkingMapper;
  /**
   * The method that reopens a session, when the agent documents one; without it, `session/resume`
   * if the agent advertises it at initialize, else `session/load`.
   */
  readonly resumeMethod?: 'session/resume' | 'session/load';
  /** Runs before the process of a resumed run is spawned (an agent's own resume workaround). */
  readonly beforeResume?: (input: { readonly sessionId: string; readonly run: BackendExecuteOptions }) => Promise<unknown>;
}

const DEFAULTS = { permissionPolicy: 'allow', resumeQuietMs: 300, resumeQuietMaxMs: 5000, cancelGraceMs: 1000 } as const;
const QUIET_POLL_MS = 25;

const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A delay that ends early when the run is aborted (the session then starts already aborted). */
function abortableDelay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}

/** The option an agent's permission request is answered with, per policy; none fitting cancels it. */
export function choosePermissionOutcome(params: RequestPermissionRequest, policy: AcpPermissionPolicy): RequestPermissionResponse {
  const preference = policy === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of preference) {
    const option = params.options.find((candidate) => candidate.kind === kind);
    if (option) return { outcome: { outcome: 'selected', optionId: option.optionId } };
  }
  return { outcome: { outcome: 'cancelled' } };
}

type AcpSettings = ReturnType<typeof acpSettings>;
type AcpClient = ReturnType<typeof createAcpClient>;

const acpSettings = (backendOptions: AcpBackendOptions) => ({ ...DEFAULTS, ...backendOptions });

/** What one run learns as it goes: the process, the session id, whether the prompt was answered. */
interface AcpRunState {
  processInput: AgentProcessInput | undefined;
  teeClientMessage: ((message: AnyMessage) => void) | undefined;
  lastAgentFrameAt: number;
  activeSessionId: string | undefined;
  promptSettled: boolean;
  notePromptSettled: () => void;
  readonly promptEnded: Promise<void>;
  /** The agent session, once created. */
  session: AgentSession | undefined;
  /** The translator's context, once the process started: protocol notes go through it into the timeline. */
  translatorContext: TranslatorContext | undefined;
}

/** One run: what it was asked, the SDK connection over the session's frames, and its state. */
interface AcpRun {
  readonly settings: AcpSettings;
  readonly backendOptions: AcpBackendOptions;
  readonly run: BackendExecuteOptions;
  readonly prompt: string;
  readonly frames: ReturnType<typeof createAcpClientStream>;
  readonly connection: ReturnType<AcpClient['connect']>;
  readonly state: AcpRunState;
}

/** What `execute` was asked, with the backend's settings and SDK client. */
type AcpRunRequest = Pick<AcpRun, 'settings' | 'backendOptions' | 'run' | 'prompt'> & { readonly acpClient: AcpClient };

/**
 * Any agent speaking the Agent Client Protocol on stdio (Gemini CLI `--acp`, Qwen Code `--acp`):
 * initialize, a new session or session/load (session/resume when advertised), one prompt, then
 * stdin is closed so the agent exits. The client advertises no fs or terminal capability, so the
 * agent uses its own tools; permission requests are answered per policy, any other request of the
 * agent with method-not-found. JSON-RPC is the official SDK's client (`client()` from
 * `@agentclientprotocol/sdk`) over a `Stream` built from the session's frames (`createAcpClientStream`).
 */
export function createAcpBackend(backendOptions: AcpBackendOptions): Backend {
  const settings = acpSettings(backendOptions);
  const acpClient = createAcpClient(settings);
  return {
    async execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const thinking = resolveThinking(options.thinkingLevel, backendOptions.thinking ?? acpThinking);
      return withOpeningNotes(await executeAcpRun({ settings, backendOptions, acpClient, prompt, run: options }), thinking.notes);
    },
  };
}

function createAcpClient(settings: { readonly permissionPolicy: AcpPermissionPolicy }) {
  // Requests the agent makes that are not registered here are answered method-not-found by the SDK.
  return (
    client({ name: 'switchyard' })
      .onRequest(methods.client.session.requestPermission, ({ params }) => choosePermissionOutcome(params, settings.permissionPolicy))
      // The timeline is built by the translator from the teed frames; the SDK only validates updates.
      .onNotification(methods.client.session.update, () => undefined)
  );
}

async function executeAcpRun(input: AcpRunRequest): Promise<AgentSession> {
  const { run, backendOptions } = input;
  if (run.resumeSessionId && backendOptions.beforeResume) await backendOptions.beforeResume({ sessionId: run.resumeSessionId, run });
  const acp = connectAcpRun(input);
  const session = createAgentSession({
    run,
    adapterArgs: [...backendOptions.adapterArgs, ...(run.model && backendOptions.modelArgs ? backendOptions.modelArgs(run.model) : [])],
    createTranslator: (context) => createTeedTranslator(acp, context),
    start: (processInput) => startAcpRun(acp, processInput),
    capabilities: (processInput) => {
      acp.state.processInput = processInput;
      return { interrupt: () => cancelTurn(acp) };
    },
    endStdinOnResult: true,
  });
  acp.state.session = session;
  void session.result.then((result) => {
    // Pending requests are rejected with the reason; nothing further is read.
    acp.connection.close(new AcpConnectionClosedError(`the agent exited (${result.exitSignal ?? `code ${String(result.exitCode)}`})`));
    acp.frames.end();
  });
  return { ...session, cancel: () => cancelAcpRun(acp, session) };
}

/** The run's state and the SDK connection over a stream of the session's frames. */
function connectAcpRun(input: AcpRunRequest): AcpRun {
  const { acpClient, ...asked } = input;
  let notePromptSettled = (): void => undefined;
  const promptEnded = new Promise<void>((resolve) => (notePromptSettled = resolve));
  const state: AcpRunState = {
    processInput: undefined,
    teeClientMessage: undefined,
    lastAgentFrameAt: performance.now(),
    activeSessionId: undefined,
    promptSettled: false,
    notePromptSettled,
    promptEnded,
    session: undefined,
    translatorContext: undefined,
  };
  const frames = createAcpClientStream({
    writeLine: (line) => (state.processInput ? state.processInput.writeStdin(line) : Promise.reject(new Error('the agent process is not started'))),
    onMessageSent: (message) => state.teeClientMessage?.(message),
  });
  return { ...asked, frames, connection: acpClient.connect(frames.stream), state };
}

/** The translator reads both sides: the agent's frames as they arrive, ours as the SDK sends them. */
function createTeedTranslator(acp: AcpRun, context: TranslatorContext): Translator {
  const translate = createAcpEventTranslator(context, acp.backendOptions.provider ? { provider: acp.backendOptions.provider } : {});
  acp.state.translatorContext = context;
  acp.state.teeClientMessage = (message) => {
    try {
      translate({ from: 'client', frame: message });
    } catch (error) {
      context.reportMalformed(`translator failed: ${error instanceof Error ? error.message : String(error)}`, JSON.stringify(message));
    }
  };
  return (frame: unknown) => {
    acp.state.lastAgentFrameAt = performance.now();
    acp.frames.receive(frame);
    translate({ from: 'agent', frame });
  };
}

async function startAcpRun(acp: AcpRun, processInput: AgentProcessInput): Promise<void> {
  acp.state.processInput = processInput;
  try {
    await drive(acp, acp.connection.agent);
  } catch (error) {
    // The agent answered with an error: the translator saw the response and reported it as the run's result.
    if (!(error instanceof RequestError)) throw error;
  }
}

async function drive(acp: AcpRun, agent: ClientContext): Promise<void> {
  const { state } = acp;
  state.activeSessionId = await openSession(acp, agent);
  const prompting = agent.request(methods.agent.session.prompt, { sessionId: state.activeSessionId, prompt: [{ type: 'text', text: acp.prompt }] });
  const settle = (): void => {
    state.promptSettled = true;
    state.notePromptSettled();
  };
  prompting.then(settle, settle);
  const result = await prompting;
  // The turn was stopped by us (interrupt or cancel): the run ends as cancelled.
  if (result.stopReason === 'cancelled') await sessionOf(acp).cancel();
}

/** The session is created before the process starts, so the protocol always finds it. */
function sessionOf(acp: AcpRun): AgentSession {
  if (!acp.state.session) throw new Error('the acp session is not created yet');
  return acp.state.session;
}

async function openSession(acp: AcpRun, agent: ClientContext): Promise<string> {
  const { settings, run } = acp;
  const initializeParams: InitializeRequest = {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: settings.clientInfo ?? { name: 'switchyard', version: '1' },
  };
  const initialized = await agent.request(methods.agent.initialize, initializeParams);
  const sessionParams: NewSessionRequest = { cwd: run.cwd, mcpServers: mcpServersFor(acp, initialized.agentCapabilities?.mcpCapabilities) };
  if (!run.resumeSessionId) return (await agent.request(methods.agent.session.new, sessionParams)).sessionId;
  const resumeParams = { sessionId: run.resumeSessionId, ...sessionParams };
  const useResume = settings.resumeMethod ? settings.resumeMethod === 'session/resume' : Boolean(initialized.agentCapabilities?.sessionCapabilities?.resume);
  if (useResume) await agent.request(methods.agent.session.resume, resumeParams);
  else await agent.request(methods.agent.session.load, resumeParams);
  await waitForQuiet(acp);
  return run.resumeSessionId;
}

/** The agent's MCP servers it can take (the same for session/new, /load and /resume); the rest said in the timeline. */
function mcpServersFor(acp: AcpRun, capabilities: McpCapabilities | undefined): NewSessionRequest['mcpServers'] {
  const { mcpServers, leftOut } = acpSessionMcpServers(acp.run.mcp, capabilities);
  if (leftOut.length > 0) {
    const servers = leftOut.map((server) => `${server.name} (${server.transport})`).join(', ');
    acp.state.translatorContext?.emit({ type: 'log', level: 'warn', text: `MCP servers not delivered: the agent does not advertise their transport in mcpCapabilities: ${servers}` });
  }
  return mcpServers;
}

async function waitForQuiet(acp: AcpRun): Promise<void> {
  const { settings, state } = acp;
  // Gemini CLI sends part of the replayed history after the session/load response.
  const startedAt = performance.now();
  while (performance.now() - state.lastAgentFrameAt < settings.resumeQuietMs && performance.now() - startedAt < settings.resumeQuietMaxMs) {
    await delay(QUIET_POLL_MS);
  }
}

async function cancelTurn(acp: AcpRun): Promise<void> {
  const { activeSessionId, promptSettled } = acp.state;
  if (activeSessionId === undefined || promptSettled) return;
  await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId: activeSessionId }).catch(() => undefined);
}

async function cancelAcpRun(acp: AcpRun, session: AgentSession): Promise<void> {
  // Let the agent end the turn cleanly (and save its session), then end the process group.
  if (acp.state.activeSessionId !== undefined && !acp.state.promptSettled) {
    await cancelTurn(acp);
    await Promise.race([acp.state.promptEnded, delay(acp.settings.cancelGraceMs)]);
  }
  await session.cancel();
}

/**
 * Gemini CLI (`gemini --acp`). Its HOME needs `writeGeminiHome`; the env needs `GEMINI_API_KEY`,
 * `GOOGLE_GEMINI_BASE_URL` (for a mock or gateway), `GEMINI_CLI_NO_RELAUNCH=true` (else the PID we
 * hold ignores SIGTERM) and `GEMINI_CLI_TRUST_WORKSPACE=true`. A resume may first wait up to a
 * minute (see `waitOutGeminiSameMinuteLoad`).
 */
export function createGeminiAcpBackend(options: Partial<Omit<AcpBackendOptions, 'adapterArgs'>> = {}): Backend {
  return createAcpBackend({
    adapterArgs: ['--acp'],
    modelArgs: (model) => ['--model', model],
    thinking: geminiThinking,
    provider: 'google',
    beforeResume: async ({ sessionId, run }) => {
      const home = run.env['HOME'];
      if (home) await waitOutGeminiSameMinuteLoad({ home, sessionId, sleep: (milliseconds) => abortableDelay(milliseconds, run.signal) });
    },
    ...options,
  });
}
