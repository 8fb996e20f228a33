import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Gemini CLI settings for an unattended, offline-safe run (CLI 0.61 key names). */
export const GEMINI_UNATTENDED_SETTINGS = {
  // maxAttempts: Gemini CLI tries a failed model call 10 times, up to 30 s apart; two keep a blip
  // invisible and leave longer waits to the queue's backoff.
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 2 },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  security: { auth: { selectedType: 'gemini-api-key' } },
} as const;

/**
 * Writes `<home>/.gemini/settings.json` so a run's private HOME starts Gemini CLI without update
 * checks, telemetry or an auth prompt. The API key and base URL stay in the run's environment
 * (`GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL`). Returns the settings file's path.
 */
export async function writeGeminiHome(options: { readonly home: string }): Promise<string> {
  const directory = path.join(options.home, '.gemini');
  await mkdir(directory, { recursive: true });
  const settingsPath = path.join(directory, 'settings.json');
  await writeFile(settingsPath, `${JSON.stringify(GEMINI_UNATTENDED_SETTINGS, null, 2)}\n`, 'utf8');
  return settingsPath;
}
