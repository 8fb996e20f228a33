import { request } from 'node:http';
import type { DaemonChannel } from './repo-command.parser';

/** A refusal of the daemon with its code (`repository_not_found`, `repo_auth_failed`, ...); no status when it did not answer. */
export class DaemonRequestError extends Error {
  override readonly name = 'DaemonRequestError';
  constructor(
    readonly status: number | undefined,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RepositoryView {
  readonly name: string;
  readonly checkoutMode: string;
  readonly checkedOut: boolean;
  readonly path: string | null;
}

export interface CheckoutView {
  readonly name: string;
  readonly checkoutMode: string;
  readonly path: string;
  readonly branch: string | null;
  readonly reused: boolean;
}

/** The calls `yard repo` makes to the daemon's agent-request server (docs/architecture/daemon.md). */
export class DaemonRequestClient {
  constructor(private readonly channel: DaemonChannel) {}

  listRepositories(): Promise<{ repositories: RepositoryView[] }> {
    return this.call('GET', `/v1/tasks/${encodeURIComponent(this.channel.taskId)}/repositories`);
  }

  checkout(repositoryName: string): Promise<CheckoutView> {
    return this.call('POST', `/v1/tasks/${encodeURIComponent(this.channel.taskId)}/repositories/${encodeURIComponent(repositoryName)}/checkout`, {});
  }

  private call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { authorization: `Bearer ${this.channel.token}`, accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) };
    return new Promise<T>((resolve, reject) => {
      const outgoing = request({ socketPath: this.channel.socketPath, method, path: route, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const parsed = parseJson(Buffer.concat(chunks).toString('utf8'));
          if (status >= 200 && status < 300 && parsed !== undefined) return resolve(parsed as T);
          const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
          reject(new DaemonRequestError(status, typeof error?.code === 'string' ? error.code : `http_${status}`, typeof error?.message === 'string' ? error.message : 'the daemon gave no readable answer'));
        });
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        reject(new DaemonRequestError(undefined, 'daemon_unreachable', `the daemon does not answer on ${this.channel.socketPath} (${error.code ?? error.message}): has the task ended?`)),
      );
      outgoing.end(payload);
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
