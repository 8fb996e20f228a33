import { readdir } from 'node:fs/promises';
import path from 'node:path';

const MINUTE_MS = 60_000;
/** Past the boundary, so clock skew between us and the CLI cannot land in the old minute. */
const MARGIN_MS = 250;

export interface GeminiSameMinuteGuardOptions {
  /** The run's HOME, holding `.gemini/tmp/<project>/chats/`. */
  readonly home: string;
  readonly sessionId: string;
  readonly now?: () => number;
  readonly sleep?: (milliseconds: number) => Promise<void>;
}

/** Gemini CLI names a session's file `session-<UTC minute>-<first 8 of id>.jsonl`. */
function sessionFileMinute(fileName: string, shortId: string): string | undefined {
  const match = /^session-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2})-(.+)\.jsonl?$/.exec(fileName);
  return match && match[2] === shortId ? match[1] : undefined;
}

function utcMinute(time: number): string {
  return new Date(time).toISOString().slice(0, 16).replace(/:/g, '-');
}

/**
 * Gemini CLI 0.61 bug: a process that loads a session starts recording it under
 * `session-<current UTC minute>-<short id>.jsonl`; when that is the name of the session's existing
 * file (the load happens in the minute the session was started), the file is truncated before it
 * is read, the load fails with "No previous sessions found for this project." and the session is
 * lost for good. Waits into the next minute when a load would hit that. Returns the time waited.
 */
export async function waitOutGeminiSameMinuteLoad(options: GeminiSameMinuteGuardOptions): Promise<number> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const shortId = options.sessionId.slice(0, 8);
  const projectsDirectory = path.join(options.home, '.gemini', 'tmp');
  const minutes = new Set<string>();
  for (const project of await readdir(projectsDirectory).catch(() => [] as string[])) {
    for (const fileName of await readdir(path.join(projectsDirectory, project, 'chats')).catch(() => [] as string[])) {
      const minute = sessionFileMinute(fileName, shortId);
      if (minute) minutes.add(minute);
    }
  }
  const startedAt = now();
  if (!minutes.has(utcMinute(startedAt))) return 0;
  const wait = (Math.floor(startedAt / MINUTE_MS) + 1) * MINUTE_MS - startedAt + MARGIN_MS;
  await sleep(wait);
  return wait;
}
