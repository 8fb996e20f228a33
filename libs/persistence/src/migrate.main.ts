import 'reflect-metadata';
import { runMigrations } from './migrations/migration.runner';

/**
 * `DATABASE_URL=postgres://... node dist/libs/persistence/src/migrate.main.js`
 * One JSON line per applied migration on stdout; a non-zero exit with the reason on failure.
 */
function writeLine(stream: NodeJS.WriteStream, fields: Record<string, unknown>): void {
  stream.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    writeLine(process.stderr, { level: 'error', event: 'migrations_failed', message: 'DATABASE_URL is not set' });
    process.exitCode = 2;
    return;
  }
  try {
    const result = await runMigrations({ url });
    for (const migration of result.applied) {
      writeLine(process.stdout, { level: 'info', event: 'migration_applied', migration });
    }
    writeLine(process.stdout, { level: 'info', event: 'migrations_complete', appliedCount: result.applied.length });
  } catch (error) {
    // The URL may hold a password: report the failure, never the configuration.
    writeLine(process.stderr, {
      level: 'error',
      event: 'migrations_failed',
      message: error instanceof Error ? error.message : String(error),
    });
    process.exitCode = 1;
  }
}

void main();
