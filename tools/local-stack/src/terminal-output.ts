/** What the supervisor prints: its own lines, plus the children's warnings and lifecycle lines. */
const LIFECYCLE_EVENTS = new Set(['service_listening', 'config_invalid', 'service_boot_failed']);
const LOUD_LEVELS = new Set(['warn', 'error', 'fatal']);

export function say(message: string): void {
  process.stdout.write(`[switchyard] ${message}\n`);
}

export function sayError(message: string): void {
  process.stderr.write(`[switchyard] ${message}\n`);
}

/** Decides whether one child log line reaches the terminal, and how it reads there. */
export function formatChildLine(service: string, line: string, verbose: boolean): string | undefined {
  if (line.trim() === '') return undefined;
  let parsed: { level?: unknown; msg?: unknown; event?: unknown } | undefined;
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    // Not one of our JSON lines (a crash trace, a library printing): always show it.
    return `[${service}] ${line}`;
  }
  const level = typeof parsed?.level === 'string' ? parsed.level : 'info';
  const event = typeof parsed?.event === 'string' ? parsed.event : '';
  if (!verbose && !LOUD_LEVELS.has(level) && !LIFECYCLE_EVENTS.has(event)) return undefined;
  const message = typeof parsed?.msg === 'string' ? parsed.msg : line;
  return `[${service}] ${level === 'info' ? '' : `${level.toUpperCase()} `}${message}`;
}
