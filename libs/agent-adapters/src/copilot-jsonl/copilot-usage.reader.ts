import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TokenUsage } from '@switchyard/contracts';
import { COPILOT_DEFAULT_PROVIDER, copilotUsageProvider } from './copilot-usage.provider';
import type { CopilotSessionShutdownEvent, CopilotUsageFile } from './copilot-wire.types';

/**
 * Token totals per model from the file `--usage-output-file` writes at the end of a run. Copilot
 * 1.0.102 prints no token counts on stdout (its `result` line has only premium requests and
 * durations), so this file is where a run's usage comes from. The provider is the one the file's
 * `providerModelMetrics` names for the model, else `fallbackProvider`.
 */
export function usageFromCopilotUsageFile(file: CopilotUsageFile, fallbackProvider: string = COPILOT_DEFAULT_PROVIDER): TokenUsage[] {
  const namedProviders = new Map((file.providerModelMetrics ?? []).filter((entry) => entry.modelId && entry.provider).map((entry) => [entry.modelId, entry.provider]));
  return Object.entries(file.modelMetrics ?? {}).map(([model, metrics]) => ({
    provider: copilotUsageProvider(namedProviders.get(model), fallbackProvider),
    model,
    inputTokens: metrics.usage?.inputTokens ?? 0,
    outputTokens: metrics.usage?.outputTokens ?? 0,
    ...(metrics.usage?.cacheReadTokens !== undefined ? { cacheReadTokens: metrics.usage.cacheReadTokens } : {}),
    ...(metrics.usage?.cacheWriteTokens !== undefined ? { cacheWriteTokens: metrics.usage.cacheWriteTokens } : {}),
  }));
}

/** Reads and removes the usage file; a run that ended before writing it has no usage to add. */
export async function takeCopilotUsageFile(filePath: string, fallbackProvider: string = COPILOT_DEFAULT_PROVIDER): Promise<TokenUsage[]> {
  try {
    return usageFromCopilotUsageFile(JSON.parse(await readFile(filePath, 'utf8')) as CopilotUsageFile, fallbackProvider);
  } catch {
    return [];
  } finally {
    await rm(filePath, { force: true });
  }
}

/**
 * Where the CLI run with `env` keeps a session's event log: `$COPILOT_HOME` (default
 * `$HOME/.copilot`), then `session-state/<id>/events.jsonl`. Undefined for a resume by session name,
 * which names no directory.
 */
export function copilotSessionEventsPath(options: { readonly env: Readonly<Record<string, string>>; readonly sessionId: string }): string | undefined {
  if (!/^[\w-]+$/.test(options.sessionId)) return undefined;
  const copilotHome = options.env['COPILOT_HOME'] ?? path.join(options.env['HOME'] ?? homedir(), '.copilot');
  return path.join(copilotHome, 'session-state', options.sessionId, 'events.jsonl');
}

/**
 * The session's token totals as of its last `session.shutdown`, which is what the usage file of the
 * next run on it starts counting from. None when the log is missing or has no shutdown yet.
 */
export async function readCopilotSessionUsage(eventsPath: string | undefined, fallbackProvider: string = COPILOT_DEFAULT_PROVIDER): Promise<TokenUsage[]> {
  if (!eventsPath) return [];
  let snapshot: CopilotUsageFile | undefined;
  try {
    const lines = createInterface({ input: createReadStream(eventsPath, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      // The log holds the whole conversation; only the rare shutdown lines are worth parsing.
      if (!line.includes('"session.shutdown"')) continue;
      const event = JSON.parse(line) as CopilotSessionShutdownEvent;
      if (event.type === 'session.shutdown' && event.data.accountingSnapshot) snapshot = event.data.accountingSnapshot;
    }
  } catch {
    // No readable log: the run's usage then keeps the earlier runs' tokens rather than failing it.
    return [];
  }
  return snapshot ? usageFromCopilotUsageFile(snapshot, fallbackProvider) : [];
}

/** What a run added to a session's totals, per model; models it did not call are left out. */
export function usageAddedSince(options: { readonly before: readonly TokenUsage[]; readonly total: readonly TokenUsage[] }): TokenUsage[] {
  const earlier = new Map(options.before.map((usage) => [usage.model, usage]));
  const since = (now: number | undefined, then: number | undefined): number => Math.max(0, (now ?? 0) - (then ?? 0));
  return options.total
    .map((usage) => {
      const previous = earlier.get(usage.model);
      return {
        ...usage,
        inputTokens: since(usage.inputTokens, previous?.inputTokens),
        outputTokens: since(usage.outputTokens, previous?.outputTokens),
        ...(usage.cacheReadTokens !== undefined ? { cacheReadTokens: since(usage.cacheReadTokens, previous?.cacheReadTokens) } : {}),
        ...(usage.cacheWriteTokens !== undefined ? { cacheWriteTokens: since(usage.cacheWriteTokens, previous?.cacheWriteTokens) } : {}),
      };
    })
    .filter((usage) => usage.inputTokens + usage.outputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > 0);
}
