import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENCODE_DIALECTS, type OpenCodeDialectId } from './opencode-dialect';

export interface WriteOpenCodeHomeOptions {
  /** A throwaway directory for this runtime; the XDG config, data, cache and state dirs go inside. */
  readonly directory: string;
  /** OpenAI-compatible Chat Completions base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** The model id the provider serves (`--model <providerId>/<model>`). */
  readonly model: string;
  /** Name of the environment variable that carries the API key (the caller puts it in the run's env). */
  readonly apiKeyVariable: string;
  readonly providerId?: string;
  readonly dialect?: OpenCodeDialectId;
  /** Declares the model `reasoning`, which is what gives it the `low`/`medium`/`high` variants. */
  readonly reasoning?: boolean;
}

export interface OpenCodeHome {
  readonly configPath: string;
  /** `provider/model`, the form `--model` takes; also the config's default `model`. */
  readonly model: string;
  /**
   * Entries for the run's env besides `HOME`, `PATH` and the API key: the XDG dirs the CLI keeps
   * config, sessions (SQLite), logs and caches in, and the switches that keep it offline.
   */
  readonly env: Readonly<Record<string, string>>;
}

export const DEFAULT_OPENCODE_PROVIDER_ID = 'switchyard';

/**
 * Writes the global config that points OpenCode (or a fork) at one OpenAI-compatible provider
 * through the bundled `@ai-sdk/openai-compatible`, with auto-update and sharing off, and returns
 * the environment a run needs to use it without reaching outside hosts.
 */
export async function writeOpenCodeHome(options: WriteOpenCodeHomeOptions): Promise<OpenCodeHome> {
  const dialect = OPENCODE_DIALECTS[options.dialect ?? 'opencode'];
  const providerId = options.providerId ?? DEFAULT_OPENCODE_PROVIDER_ID;
  const xdg = {
    XDG_CONFIG_HOME: path.join(options.directory, 'config'),
    XDG_DATA_HOME: path.join(options.directory, 'data'),
    XDG_CACHE_HOME: path.join(options.directory, 'cache'),
    XDG_STATE_HOME: path.join(options.directory, 'state'),
  };
  const configDirectory = path.join(xdg.XDG_CONFIG_HOME, dialect.configDirectoryName);
  await Promise.all(Object.values(xdg).map((directory) => mkdir(directory, { recursive: true })));
  await mkdir(configDirectory, { recursive: true });
  const model = `${providerId}/${options.model}`;
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model,
    provider: {
      [providerId]: {
        npm: '@ai-sdk/openai-compatible',
        name: providerId,
        // `{env:NAME}` is resolved by the CLI when it loads the config: the key never lands on disk.
        options: { baseURL: options.baseUrl, apiKey: `{env:${options.apiKeyVariable}}` },
        models: { [options.model]: { name: options.model, tool_call: true, ...(options.reasoning ? { reasoning: true } : {}) } },
      },
    },
  };
  const configPath = path.join(configDirectory, dialect.configFileName);
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  const prefix = dialect.environmentPrefix;
  return {
    configPath,
    model,
    env: {
      ...xdg,
      [`${prefix}_DISABLE_MODELS_FETCH`]: '1',
      [`${prefix}_DISABLE_AUTOUPDATE`]: '1',
      [`${prefix}_DISABLE_SHARE`]: '1',
      // Language servers are otherwise downloaded the first time a matching file is touched.
      [`${prefix}_DISABLE_LSP_DOWNLOAD`]: '1',
      // At start the CLI npm-installs `@opencode-ai/plugin` into every config dir it loads, in a
      // detached background job (1.18: Arborist, npm config read from the environment). Offline
      // npm answers from its cache only, so the job fails at once without a connection instead of
      // waiting on an unreachable registry; the run itself never waits for it.
      npm_config_offline: 'true',
    },
  };
}
