import type { JsonLogger } from '../logging/json-logger';

/** Exit code after an error we know leaves the process unfit to go on (EX_SOFTWARE). */
export const FATAL_ERROR_EXIT_CODE = 70;

/**
 * Error codes after which going on would do harm: a failed `node:assert` (`ERR_ASSERTION`) says
 * an invariant of ours no longer holds, so state built on it cannot be trusted; Node's own
 * internal assertion and a failed memory allocation say the runtime itself is broken. Anything
 * else thrown from a callback (a socket error without a listener, a defect in one handler) costs
 * the work it was part of, not every request and run the process holds: logged, it goes on.
 */
const FATAL_ERROR_CODES: ReadonlySet<string> = new Set(['ERR_ASSERTION', 'ERR_INTERNAL_ASSERTION', 'ERR_MEMORY_ALLOCATION_FAILED']);

export function isFatalError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return typeof error.code === 'string' && FATAL_ERROR_CODES.has(error.code);
}

/** The part of `process` the guards use: a test hands in its own emitter. */
export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
  exit(code: number): void;
}

const guarded = new WeakSet<GuardedProcess>();

/**
 * Installs, once per process, the last line of defence: an unhandled rejection or an uncaught
 * exception is logged as a structured error event (`unhandled_rejection`, `uncaught_exception`)
 * and the process keeps serving; Node's default would end it, and with it every other request,
 * consumer and agent run it holds. Only a fatal error (see `isFatalError`) ends it, once logged.
 * Returns false when the guards were already installed.
 */
export function installProcessGuards(logger: JsonLogger, target: GuardedProcess = process): boolean {
  if (guarded.has(target)) return false;
  guarded.add(target);
  target.on('unhandledRejection', (reason) => {
    logger.error({ event: 'unhandled_rejection', err: reason }, `unhandled promise rejection: ${describe(reason)}`);
  });
  target.on('uncaughtException', (error, origin) => {
    if (!isFatalError(error)) {
      logger.error({ event: 'uncaught_exception', origin, err: error }, `uncaught exception: ${describe(error)}`);
      return;
    }
    logger.fatal({ event: 'fatal_error', origin, err: error }, `fatal error, exiting: ${describe(error)}`);
    // The reason must reach the output before the process ends.
    logger.flush(() => target.exit(FATAL_ERROR_EXIT_CODE));
  });
  return true;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
