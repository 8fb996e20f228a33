import { unsupportedThinking } from '../backend/thinking-level';

/**
 * ACP has no thinking setting in `session/new` or `session/prompt`, and the ACP agents in the
 * catalog take none on their command line.
 */
export const acpThinking = unsupportedThinking('the agent takes no thinking setting over ACP or on its command line');

/**
 * Gemini CLI 0.61 in ACP mode has no thinking flag, and sends `thinkingConfig.thinkingLevel: HIGH`
 * whatever a per-run system settings file (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`) says in
 * `modelConfigs` (overrides, custom overrides or aliases, tried against the mock model).
 */
export const geminiThinking = unsupportedThinking('Gemini CLI in ACP mode has no thinking flag and ignores model config overrides for it');
