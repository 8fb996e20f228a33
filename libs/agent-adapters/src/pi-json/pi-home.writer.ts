import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { piDialect, type PiDialectId } from './pi-dialect';

export const DEFAULT_PI_PROVIDER = 'switchyard';

/** Request-shape switches of an OpenAI-compatible server (Pi's `compat`, see its docs/models.md). */
export interface PiOpenAiCompat {
  readonly supportsDeveloperRole?: boolean;
  readonly supportsReasoningEffort?: boolean;
}

export interface WritePiHomeOptions {
  /** The agent directory to fill; the run's env points `PI_CODING_AGENT_DIR` at it. */
  readonly directory: string;
  /** The Chat Completions base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Name of the environment variable that carries the API key (the caller puts it in the run's env). */
  readonly apiKeyVariable: string;
  readonly provider?: string;
  readonly dialect?: PiDialectId;
  /** Whether the model thinks (Pi then sends the system prompt as `developer` unless compat says no). */
  readonly reasoning?: boolean;
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly compat?: PiOpenAiCompat;
}

export interface PiHome {
  readonly directory: string;
  readonly modelsPath: string;
  /** Pi only; omp keeps its settings elsewhere (`config.yml`) and is steered by flags. */
  readonly settingsPath?: string;
  readonly provider: string;
  readonly model: string;
  /** Entries for the run's env (the API key itself stays with the caller). */
  readonly env: {
    readonly PI_CODING_AGENT_DIR: string;
    readonly PI_OFFLINE: '1';
    readonly PI_SKIP_VERSION_CHECK: '1';
    readonly PI_TELEMETRY: '0';
  };
}

/**
 * Writes the custom provider (`api: "openai-completions"`) and, for Pi, settings that name it the
 * default and keep an unattended run quiet and offline (no install ping, no update check; the env
 * adds `PI_OFFLINE=1`, which also stops package update checks). Sessions are then stored under
 * `<directory>/sessions/`, so resuming needs the same directory.
 */
export async function writePiHome(options: WritePiHomeOptions): Promise<PiHome> {
  const dialect = piDialect(options.dialect);
  const provider = options.provider ?? DEFAULT_PI_PROVIDER;
  await mkdir(options.directory, { recursive: true });
  const model = {
    id: options.model,
    name: options.model,
    reasoning: options.reasoning ?? false,
    input: ['text'],
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  };
  const models = {
    providers: {
      [provider]: {
        baseUrl: options.baseUrl,
        api: 'openai-completions',
        // Pi reads a value that names a set environment variable as that variable's value.
        apiKey: options.apiKeyVariable,
        ...(options.compat ? { compat: options.compat } : {}),
        models: [model],
      },
    },
  };
  const modelsPath = path.join(options.directory, dialect.modelsFileName);
  // JSON is valid YAML, so omp's models.yml takes the same document.
  await writeFile(modelsPath, `${JSON.stringify(models, null, 2)}\n`, { mode: 0o600 });

  let settingsPath: string | undefined;
  if (dialect.id === 'pi') {
    settingsPath = path.join(options.directory, 'settings.json');
    const settings = { defaultProvider: provider, defaultModel: options.model, enableInstallTelemetry: false, quietStartup: true, collapseChangelog: true };
    await writeFile(settingsPath, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  }
  return {
    directory: options.directory,
    modelsPath,
    ...(settingsPath ? { settingsPath } : {}),
    provider,
    model: options.model,
    env: { PI_CODING_AGENT_DIR: options.directory, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
  };
}
