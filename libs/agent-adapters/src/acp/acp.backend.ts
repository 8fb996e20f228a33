import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AnyMessage,
  type ClientContext,
  type InitializeRequest,
  type NewSessionRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { AcpConnectionClosedError, createAcpClientStream } from './acp-client.stream';
import { createAcpEventTranslator } from './acp-event.translator';
import { waitOutGeminiSameMinuteLoad } from './gemini-session.guard';

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

/**
 * Any agent speaking the Agent Client Protocol on stdio (Gemini CLI `--acp`, Qwen Code `--acp`):
 * initialize, a new session or session/load (session/resume when advertised), one prompt, then
 * stdin is closed so the agent exits. The client advertises no fs or terminal capability, so the
 * agent uses its own tools; permission requests are answered per policy, any other request of the
 * agent with method-not-found. JSON-RPC is the official SDK's client (`client()` from
 * `@agentclientprotocol/sdk`) over a `Stream` built from the session's frames (`createAcpClientStream`).
 */
export function createAcpBackend(backendOptions: AcpBackendOptions): Backend {
  const settings = { ...DEFAULTS, ...backendOptions };
  // Requests the agent makes that are not registered here are answered method-not-found by the SDK.
  const acpClient = client({ name: 'switchyard' })
    .onRequest(methods.client.session.requestPermission, ({ params }) => choosePermissionOutcome(params, settings.permissionPolicy))
    // The timeline is built by the translator from the teed frames; the SDK only validates updates.
    .onNotification(methods.client.session.update, () => undefined);

  return {
    async execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      if (options.resumeSessionId && backendOptions.beforeResume) await backendOptions.beforeResume({ sessionId: options.resumeSessionId, run: options });
      let processInput: AgentProcessInput | undefined;
      let teeClientMessage: ((message: AnyMessage) => void) | undefined;
      let lastAgentFrameAt = performance.now();
      let activeSessionId: string | undefined;
      let promptSettled = false;
      let notePromptSettled = (): void => undefined;
      const promptEnded = new Promise<void>((resolve) => (notePromptSettled = resolve));

      const frames = createAcpClientStream({
        writeLine: (line) => (processInput ? processInput.writeStdin(line) : Promise.reject(new Error('the agent process is not started'))),
        onMessageSent: (message) => teeClientMessage?.(message),
      });
      const connection = acpClient.connect(frames.stream);

      const waitForQuiet = async (): Promise<void> => {
        // Gemini CLI sends part of the replayed history after the session/load response.
        const startedAt = performance.now();
        while (performance.now() - lastAgentFrameAt < settings.resumeQuietMs && performance.now() - startedAt < settings.resumeQuietMaxMs) {
          await delay(QUIET_POLL_MS);
        }
      };

      const cancelTurn = async (): Promise<void> => {
        if (activeSessionId === undefined || promptSettled) return;
        await connection.agent.notify(methods.agent.session.cancel, { sessionId: activeSessionId }).catch(() => undefined);
      };

      const openSession = async (agent: ClientContext): Promise<string> => {
        const initializeParams: InitializeRequest = {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: settings.clientInfo ?? { name: 'switchyard', version: '1' },
        };
        const initialized = await agent.request(methods.agent.initialize, initializeParams);
        const sessionParams: NewSessionRequest = { cwd: options.cwd, mcpServers: [] };
        if (!options.resumeSessionId) return (await agent.request(methods.agent.session.new, sessionParams)).sessionId;
        const resumeParams = { sessionId: options.resumeSessionId, ...sessionParams };
        const useResume = settings.resumeMethod ? settings.resumeMethod === 'session/resume' : Boolean(initialized.agentCapabilities?.sessionCapabilities?.resume);
        if (useResume) await agent.request(methods.agent.session.resume, resumeParams);
        else await agent.request(methods.agent.session.load, resumeParams);
        await waitForQuiet();
        return options.resumeSessionId;
      };

      const drive = async (agent: ClientContext): Promise<void> => {
        activeSessionId = await openSession(agent);
        const prompting = agent.request(methods.agent.session.prompt, { sessionId: activeSessionId, prompt: [{ type: 'text', text: prompt }] });
        const settle = (): void => {
          promptSettled = true;
          notePromptSettled();
        };
        prompting.then(settle, settle);
        const result = await prompting;
        // The turn was stopped by us (interrupt or cancel): the run ends as cancelled.
        if (result.stopReason === 'cancelled') await session.cancel();
      };

      const session = createAgentSession({
        run: options,
        adapterArgs: [...backendOptions.adapterArgs, ...(options.model && backendOptions.modelArgs ? backendOptions.modelArgs(options.model) : [])],
        createTranslator: (context) => {
          const translate = createAcpEventTranslator(context, backendOptions.provider ? { provider: backendOptions.provider } : {});
          teeClientMessage = (message) => {
            try {
              translate({ from: 'client', frame: message });
            } catch (error) {
              context.reportMalformed(`translator failed: ${error instanceof Error ? error.message : String(error)}`, JSON.stringify(message));
            }
          };
          return (frame: unknown) => {
            lastAgentFrameAt = performance.now();
            frames.receive(frame);
            translate({ from: 'agent', frame });
          };
        },
        start: async (input) => {
          processInput = input;
          try {
            await drive(connection.agent);
          } catch (error) {
            // The agent answered with an error: the translator saw the response and reported it as the run's result.
            if (!(error instanceof RequestError)) throw error;
          }
        },
        capabilities: (input) => {
          processInput = input;
          return { interrupt: cancelTurn };
        },
        endStdinOnResult: true,
      });
      void session.result.then((result) => {
        // Pending requests are rejected with the reason; nothing further is read.
        connection.close(new AcpConnectionClosedError(`the agent exited (${result.exitSignal ?? `code ${String(result.exitCode)}`})`));
        frames.end();
      });

      return {
        ...session,
        cancel: async () => {
          // Let the agent end the turn cleanly (and save its session), then end the process group.
          if (activeSessionId !== undefined && !promptSettled) {
            await cancelTurn();
            await Promise.race([promptEnded, delay(settings.cancelGraceMs)]);
          }
          await session.cancel();
        },
      };
    },
  };
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
    provider: 'google',
    beforeResume: async ({ sessionId, run }) => {
      const home = run.env['HOME'];
      if (home) await waitOutGeminiSameMinuteLoad({ home, sessionId, sleep: (milliseconds) => abortableDelay(milliseconds, run.signal) });
    },
    ...options,
  });
}
