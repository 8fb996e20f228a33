/** Wire formats Copilot CLI can speak to a BYOK provider (`COPILOT_PROVIDER_WIRE_API`). */
export type CopilotProviderWireApi = 'completions' | 'responses';

export interface CopilotEnvironmentOptions {
  /** OpenAI-compatible base URL with its `/v1`, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  /** The model the provider serves; also what the CLI picks its agent configuration by. */
  readonly model: string;
  /** The provider's API key; omitted for a local provider that takes none. */
  readonly apiKey?: string;
  /** Default `completions` (Chat Completions); `responses` for providers that only speak Responses. */
  readonly wireApi?: CopilotProviderWireApi;
}

/**
 * The variables the daemon gives GitHub Copilot CLI (1.0.102, `copilot help environment`) so a
 * prompt-mode run is unattended and offline: no GitHub sign-in, telemetry, web tools, GitHub MCP
 * server or self-update, and every model call goes to the given provider. `HOME` (which holds
 * `~/.copilot` sessions and the `~/.cache/copilot` package the CLI unpacks on its first run) and
 * `PATH` stay with the caller; resuming needs the same `HOME`.
 */
export function copilotEnvironment(options: CopilotEnvironmentOptions): Record<string, string> {
  return {
    // Offline also refuses to start without COPILOT_PROVIDER_BASE_URL, so no run falls back to GitHub.
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_BASE_URL: options.baseUrl,
    COPILOT_PROVIDER_WIRE_API: options.wireApi ?? 'completions',
    ...(options.apiKey !== undefined ? { COPILOT_PROVIDER_API_KEY: options.apiKey } : {}),
    COPILOT_MODEL: options.model,
    // Escape codes would only clutter the stderr tail an error report quotes.
    NO_COLOR: '1',
  };
}
