import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Qwen Code settings for an unattended, offline-safe run (CLI 0.15 key names). Besides update checks,
 * usage statistics (flushed to a public host) and telemetry, managed auto-memory is off: it runs a
 * background agent after each turn that calls the model again, with tools, and delays the exit.
 */
export const QWEN_UNATTENDED_SETTINGS = {
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
  ide: { enabled: false },
  // One retry of a failed connection, then the queue's backoff; Qwen Code's own loop on a 429 or
  // a 5xx ignores it (protocol-families.md, "Failure classification").
  model: { generationConfig: { maxRetries: 1 } },
} as const;

/** Environment every Qwen Code run needs besides the model variables. */
export const QWEN_PROCESS_ENVIRONMENT = {
  // Else `qwen` relaunches itself and the process the session holds is only a wrapper.
  QWEN_CODE_NO_RELAUNCH: 'true',
} as const;

export interface QwenHome {
  readonly settingsPath: string;
  /** Entries for the run's env (`HOME` itself and the model variables stay with the caller). */
  readonly env: typeof QWEN_PROCESS_ENVIRONMENT;
}

/**
 * Writes `<home>/.qwen/settings.json` for a run's private HOME. Sessions (for `--resume`) are kept
 * under `<home>/.qwen/projects/<cwd slug>/`, so a resume needs the same HOME and work directory.
 */
export async function writeQwenHome(options: { readonly home: string }): Promise<QwenHome> {
  const directory = path.join(options.home, '.qwen');
  await mkdir(directory, { recursive: true });
  const settingsPath = path.join(directory, 'settings.json');
  await writeFile(settingsPath, `${JSON.stringify(QWEN_UNATTENDED_SETTINGS, null, 2)}\n`, 'utf8');
  return { settingsPath, env: QWEN_PROCESS_ENVIRONMENT };
}

/**
 * The OpenAI-compatible model endpoint for `--auth-type openai`: `baseUrl` as the API wants it,
 * with `/v1` (`http://127.0.0.1:PORT/v1`).
 */
export function qwenModelEnvironment(options: { readonly baseUrl: string; readonly apiKey: string; readonly model: string }): Record<string, string> {
  return { OPENAI_BASE_URL: options.baseUrl, OPENAI_API_KEY: options.apiKey, OPENAI_MODEL: options.model };
}
