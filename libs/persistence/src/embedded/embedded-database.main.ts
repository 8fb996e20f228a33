import { parseArgs } from 'node:util';
import { startEmbeddedDatabase } from './embedded-database';

/**
 * Starts the embedded database for the local stack:
 *   node embedded-database.main.js [--data-directory .switchyard/pgdata] [--port 0] [--host 127.0.0.1]
 * (or EMBEDDED_DATABASE_DIRECTORY / EMBEDDED_DATABASE_PORT / EMBEDDED_DATABASE_HOST).
 * Prints {"event":"embedded_database_ready","url":...} once connections are accepted and
 * stops cleanly on SIGTERM or SIGINT.
 */
function writeLine(stream: NodeJS.WriteStream, fields: Record<string, unknown>): void {
  stream.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

function readSettings(): { dataDirectory?: string; port: number; host: string } {
  const { values } = parseArgs({
    options: {
      'data-directory': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  const dataDirectory = values['data-directory'] ?? process.env['EMBEDDED_DATABASE_DIRECTORY'];
  const portText = values.port ?? process.env['EMBEDDED_DATABASE_PORT'] ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`port must be an integer 0-65535, got "${portText}"`);
  const host = values.host ?? process.env['EMBEDDED_DATABASE_HOST'] ?? '127.0.0.1';
  return { ...(dataDirectory ? { dataDirectory } : {}), port, host };
}

async function main(): Promise<void> {
  const settings = readSettings();
  const database = await startEmbeddedDatabase(settings);
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    database.stop().then(
      () => writeLine(process.stdout, { level: 'info', event: 'embedded_database_stopped', signal }),
      (error: unknown) => {
        writeLine(process.stderr, { level: 'error', event: 'embedded_database_stop_failed', message: String(error) });
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  writeLine(process.stdout, {
    level: 'info',
    event: 'embedded_database_ready',
    url: database.url,
    dataDirectory: settings.dataDirectory ?? null,
  });
}

main().catch((error: unknown) => {
  writeLine(process.stderr, {
    level: 'error',
    event: 'embedded_database_failed',
    message: error instanceof Error ? error.message : String(error),
  });
  process.exitCode = 1;
});
