import { mkdirSync, lstatSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { TechnicalError } from '@switchyard/contracts';

/** macOS's `sun_path` holds 104 bytes with its NUL (Linux 108): the stricter limit, on every OS. */
export const MAX_SOCKET_PATH_BYTES = 103;

export const AGENT_REQUEST_SOCKET_ERROR_CODES = {
  socket_path_too_long: 'socket_path_too_long',
  /** Something that is not a socket sits at the path: never deleted for the daemon's sake. */
  socket_path_occupied: 'socket_path_occupied',
  /** A live process answers on the socket: another daemon on the same home. */
  socket_in_use: 'socket_in_use',
} as const;

export type AgentRequestSocketErrorCode = keyof typeof AGENT_REQUEST_SOCKET_ERROR_CODES;

/** The agent-request socket cannot be set up: a boot error, the same again until the path is fixed. */
export class AgentRequestSocketError extends TechnicalError<AgentRequestSocketErrorCode> {
  constructor(code: AgentRequestSocketErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { isRetryable: false, cause: options.cause });
  }
}

/**
 * Makes `socketPath` free to listen on: absolute, short enough, its folder there (0700 when we
 * create it), and a socket file left by a dead daemon removed. Returns the absolute path.
 */
export async function prepareSocketPath(socketPath: string): Promise<string> {
  const absolute = path.resolve(socketPath);
  const bytes = Buffer.byteLength(absolute, 'utf8');
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new AgentRequestSocketError('socket_path_too_long', `the agent socket path ${absolute} is ${bytes} bytes; a unix socket path may have at most ${MAX_SOCKET_PATH_BYTES}: use a shorter SWITCHYARD_HOME`);
  }
  mkdirSync(path.dirname(absolute), { recursive: true, mode: 0o700 });
  const existing = statIfPresent(absolute);
  if (!existing) return absolute;
  if (!existing.isSocket()) throw new AgentRequestSocketError('socket_path_occupied', `${absolute} exists and is not a socket: remove it or choose another path`);
  if (await answers(absolute)) throw new AgentRequestSocketError('socket_in_use', `a process already listens on ${absolute}: is another daemon running on this home?`);
  unlinkSync(absolute);
  return absolute;
}

function statIfPresent(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether something accepts a connection on the socket (a stale one refuses: ECONNREFUSED). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
