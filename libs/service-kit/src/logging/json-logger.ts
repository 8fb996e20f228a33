import pino, { type Logger } from 'pino';
import type { LoggerService } from '@nestjs/common';

export type JsonLogger = Logger;

export interface CreateJsonLoggerOptions {
  readonly service: string;
  readonly level: string;
  /** Defaults to stdout; tests pass a stream to read the lines back. */
  readonly destination?: pino.DestinationStream;
}

/** One JSON object per line, with the service name on every line. */
export function createJsonLogger(options: CreateJsonLoggerOptions): JsonLogger {
  return pino(
    {
      level: options.level,
      base: { service: options.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization'], censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** Routes NestJS's own log calls into the JSON logger. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: JsonLogger) {}

  log(message: unknown, ...context: unknown[]): void {
    this.write('info', message, context);
  }
  error(message: unknown, ...context: unknown[]): void {
    this.write('error', message, context);
  }
  warn(message: unknown, ...context: unknown[]): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, ...context: unknown[]): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, ...context: unknown[]): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, ...context: unknown[]): void {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context: unknown[]): void {
    // Nest passes the context name last (and a stack before it for errors).
    const contextName = typeof context[context.length - 1] === 'string' ? (context[context.length - 1] as string) : undefined;
    const stack = context.length > 1 && typeof context[0] === 'string' ? context[0] : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context: contextName, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context: contextName, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level]({ context: contextName, stack }, String(message));
    }
  }
}
