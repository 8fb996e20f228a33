import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CodexApprovalPolicy, CodexSandboxMode } from './codex-wire.types';

const execFileAsync = promisify(execFile);

/** The bundled entry cloned for an unknown model slug: a plain tools-mode model (no code mode). */
export const DEFAULT_CATALOG_TEMPLATE_SLUG = 'gpt-5.5';

export interface WriteCodexHomeOptions {
  /** The `CODEX_HOME` to fill; keep it out of `/tmp` and outside any git repository. */
  readonly directory: string;
  /** The Responses API base URL as Codex wants it, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Name of the environment variable that carries the API key (the caller puts it in the run's env). */
  readonly apiKeyVariable: string;
  readonly approvalPolicy?: CodexApprovalPolicy;
  readonly sandboxMode?: CodexSandboxMode;
  /**
   * When given and the model slug is not one Codex bundles, a bundled entry is cloned under the
   * slug into a model catalog: an unknown slug otherwise adds a warning and changes the tools.
   */
  readonly codexExecutable?: string;
  readonly catalogTemplateSlug?: string;
}

export interface CodexHome {
  readonly directory: string;
  readonly configPath: string;
  readonly catalogPath?: string;
  /** Entries for the run's env (the API key itself stays with the caller). */
  readonly env: { readonly CODEX_HOME: string };
}

// TOML basic strings accept JSON's escapes.
const tomlString = (value: string): string => JSON.stringify(value);

/** Writes `config.toml` (and the model catalog when needed) that points Codex at one provider, with update checks, analytics and plugins off. */
export async function writeCodexHome(options: WriteCodexHomeOptions): Promise<CodexHome> {
  await mkdir(options.directory, { recursive: true });
  const catalogPath = options.codexExecutable ? await writeModelCatalog({ ...options, codexExecutable: options.codexExecutable }) : undefined;
  const lines = [
    `model = ${tomlString(options.model)}`,
    'model_provider = "switchyard"',
    `approval_policy = ${tomlString(options.approvalPolicy ?? 'never')}`,
    `sandbox_mode = ${tomlString(options.sandboxMode ?? 'danger-full-access')}`,
    'check_for_update_on_startup = false',
    ...(catalogPath ? [`model_catalog_json = ${tomlString(catalogPath)}`] : []),
    '',
    '[analytics]',
    'enabled = false',
    '',
    // Without these Codex runs `git ls-remote` against a public host at start.
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    '',
    '[model_providers.switchyard]',
    'name = "switchyard"',
    `base_url = ${tomlString(options.baseUrl)}`,
    `env_key = ${tomlString(options.apiKeyVariable)}`,
    'wire_api = "responses"',
    // Codex retries a failed request 4 times and a cut stream 5 times (30 calls on a 5xx); one
    // each keeps a blip invisible and leaves longer waits to the queue's backoff.
    'request_max_retries = 1',
    'stream_max_retries = 1',
    '',
  ];
  const configPath = path.join(options.directory, 'config.toml');
  await writeFile(configPath, lines.join('\n'), { mode: 0o600 });
  return { directory: options.directory, configPath, ...(catalogPath ? { catalogPath } : {}), env: { CODEX_HOME: options.directory } };
}

interface CatalogEntry {
  readonly slug: string;
  readonly [field: string]: unknown;
}

async function writeModelCatalog(options: WriteCodexHomeOptions & { codexExecutable: string }): Promise<string | undefined> {
  const { stdout } = await execFileAsync(options.codexExecutable, ['debug', 'models', '--bundled'], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.directory, CODEX_HOME: options.directory },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 30_000,
  });
  const bundled = (JSON.parse(stdout) as { models?: CatalogEntry[] }).models ?? [];
  if (bundled.some((entry) => entry.slug === options.model)) return undefined;
  const templateSlug = options.catalogTemplateSlug ?? DEFAULT_CATALOG_TEMPLATE_SLUG;
  const template = bundled.find((entry) => entry.slug === templateSlug) ?? bundled[0];
  if (!template) throw new Error(`codex debug models --bundled listed no models to clone for ${options.model}`);
  // An unknown slug is served by whatever provider the agent points at, which need not speak Codex's
  // client-side `tool_search`: without search support Codex offers MCP tools upfront instead of deferring them.
  const entry = { ...template, slug: options.model, display_name: options.model, upgrade: null, priority: 0, supports_search_tool: false };
  const catalogPath = path.join(options.directory, 'model-catalog.json');
  await writeFile(catalogPath, JSON.stringify({ models: [entry] }));
  return catalogPath;
}
