import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { redactSecrets } from '@switchyard/redaction';
import type { JsonLogger } from '@switchyard/service-kit';
import { prepareSocketPath } from './agent-request-socket';
import { AgentRequestRefusal, checkoutErrorCode, checkoutFailureStatus } from './agent-request.refusal';
import { matchAgentRequestRoute, type AgentRequestRoute } from './agent-request.routes';
import { AgentTaskRegistry, type AgentTaskRegistration, type RegisteredTask } from './agent-task.registry';

/** Requests carry no payload worth more: a bigger body is refused before it is read whole. */
export const MAX_AGENT_REQUEST_BODY_BYTES = 16 * 1024;
/** A message longer than this is cut: it is read by an agent in a terminal. */
const MAX_ERROR_MESSAGE_CHARACTERS = 2000;

export interface AgentRequestServerOptions {
  /** E.g. `<SWITCHYARD_HOME>/agent-tools/daemon.sock`; resolved to an absolute path. */
  readonly socketPath: string;
  readonly logger: JsonLogger;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * The daemon's local door for its agents (`yard repo ...`): HTTP on a unix socket only the
 * daemon's OS user may open (0600), each request about one running task and carrying that task's
 * token. The daemon acts for the agent here, so credentials (a repository's token) never reach it.
 */
export class AgentRequestServer {
  private readonly registry = new AgentTaskRegistry();
  private server: Server | undefined;
  private listeningPath: string | undefined;

  constructor(private readonly options: AgentRequestServerOptions) {}

  /** Listens; resolves with the absolute socket path (what agents get in `SWITCHYARD_DAEMON_SOCKET`). */
  async start(): Promise<string> {
    const socketPath = await prepareSocketPath(this.options.socketPath);
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.options.logger.error({ err: error, event: 'agent_request_failed' }, 'an agent request could not be answered');
        response.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Under the 0700 home nobody else could reach it before this chmod either.
    chmodSync(socketPath, 0o600);
    server.on('error', (error) => this.options.logger.error({ err: error, event: 'agent_request_server_error' }, 'the agent-request server failed'));
    this.server = server;
    this.listeningPath = socketPath;
    return socketPath;
  }

  /** A task is served while registered; call the returned function when its run ends. */
  register(registration: AgentTaskRegistration): () => void {
    return this.registry.register(registration);
  }

  /** Stops listening, drops open connections and removes the socket file. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (this.listeningPath) rmSync(this.listeningPath, { force: true });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let route: AgentRequestRoute | undefined;
    let task: RegisteredTask | undefined;
    let answer: Answer;
    try {
      route = matchAgentRequestRoute(request.method ?? '', request.url ?? '');
      await readJsonBody(request);
      task = this.registry.authenticate(route.taskId, bearerToken(request.headers.authorization));
      if (!task) throw new AgentRequestRefusal('task_token_inactive', 'the task token is not a running task’s: the task has ended, or the token is not its own');
      answer = route.kind === 'list_repositories' ? this.listRepositories(task) : await this.checkoutRepository(task, route.repositoryName);
    } catch (error) {
      answer = this.refusalAnswer(error, { route, task });
    }
    writeJson(response, answer);
  }

  private listRepositories(task: RegisteredTask): Answer {
    // Field by field: whatever else the runner's objects hold (a URL, a credential) stays here.
    const repositories = task.registration.repositories().map(({ name, checkoutMode, checkedOut, path }) => ({ name, checkoutMode, checkedOut, path }));
    return { status: 200, body: { repositories } };
  }

  private async checkoutRepository(task: RegisteredTask, repositoryName: string): Promise<Answer> {
    const { taskId } = task.registration;
    const repository = task.registration.repositories().find((candidate) => candidate.name === repositoryName);
    if (!repository) throw new AgentRequestRefusal('repository_not_found', `this task has no repository named ${repositoryName}: yard repo list names them`);
    try {
      const checkout = await this.registry.checkout(task, repositoryName);
      this.options.logger.info({ event: 'agent_repository_checkout', taskId, repository: repositoryName, branch: checkout.branch, reused: checkout.reused }, 'repository checked out for the agent');
      return { status: 200, body: { name: repositoryName, checkoutMode: repository.checkoutMode, path: checkout.path, branch: checkout.branch, reused: checkout.reused } };
    } catch (error) {
      const code = checkoutErrorCode(error);
      if (!code) {
        this.options.logger.error({ err: error, event: 'agent_repository_checkout_failed', taskId, repository: repositoryName }, 'the checkout failed without a typed code');
        throw new AgentRequestRefusal('checkout_failed', `the checkout of ${repositoryName} failed unexpectedly: the daemon’s log has the details`);
      }
      const message = safeMessage(error instanceof Error ? error.message : code, task);
      this.options.logger.warn({ event: 'agent_repository_checkout_failed', taskId, repository: repositoryName, code, message }, 'the checkout failed');
      return { status: checkoutFailureStatus(code), body: { error: { code, message } } };
    }
  }

  private refusalAnswer(error: unknown, context: { route: AgentRequestRoute | undefined; task: RegisteredTask | undefined }): Answer {
    const refusal = error instanceof AgentRequestRefusal ? error : new AgentRequestRefusal('internal_error', 'the daemon could not answer: its log has the details');
    if (refusal !== error) this.options.logger.error({ err: error, event: 'agent_request_failed', taskId: context.route?.taskId }, 'an agent request failed');
    else this.options.logger.info({ event: 'agent_request_refused', code: refusal.code, route: context.route?.kind, taskId: context.route?.taskId }, 'agent request refused');
    return { status: refusal.status, body: { error: { code: refusal.code, message: context.task ? safeMessage(refusal.message, context.task) : refusal.message } } };
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

/** Reads the body within the limit; it must be empty or one JSON object (the routes take no fields yet). */
async function readJsonBody(request: IncomingMessage): Promise<void> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_AGENT_REQUEST_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_AGENT_REQUEST_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentRequestRefusal('invalid_json', 'the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AgentRequestRefusal('invalid_json', 'the body must be a JSON object');
}

const tooLarge = (): AgentRequestRefusal => new AgentRequestRefusal('request_too_large', `the body is over ${MAX_AGENT_REQUEST_BODY_BYTES} bytes`);

/** An error's message as the agent may read it: secret patterns and the task's token redacted, cut to a length. */
function safeMessage(message: string, task: RegisteredTask): string {
  const redacted = redactSecrets(message, { exactSecrets: [task.registration.taskToken] });
  return redacted.length > MAX_ERROR_MESSAGE_CHARACTERS ? `${redacted.slice(0, MAX_ERROR_MESSAGE_CHARACTERS)}…` : redacted;
}

function writeJson(response: ServerResponse, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  // A refusal before the body was read whole closes the connection instead of reading the rest.
  const closing = answer.status === 413;
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(closing ? { connection: 'close' } : {}),
  });
  response.end(body);
}
