import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ThinkingDelivery } from './thinking-level';

export interface ThinkingSettings {
  /** The variable that points the CLI at the file; empty when the level needs no file. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the file once the run is over. */
  remove(): Promise<void>;
}

/**
 * Writes a level's settings file for one run (a CLI's own settings are shared by the runs of its
 * runtime, so the level cannot go there) into a private temporary folder, mode 0600.
 */
export async function writeThinkingSettings(delivery: ThinkingDelivery): Promise<ThinkingSettings> {
  if (!delivery.settingsFile) return { env: {}, remove: () => Promise.resolve() };
  const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-thinking-'));
  const file = path.join(directory, 'settings.json');
  await writeFile(file, `${JSON.stringify(delivery.settingsFile.content, null, 2)}\n`, { mode: 0o600 });
  return { env: { [delivery.settingsFile.variable]: file }, remove: () => rm(directory, { recursive: true, force: true }) };
}
