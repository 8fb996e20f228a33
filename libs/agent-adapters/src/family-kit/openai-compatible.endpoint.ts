import type { LaunchAgent } from './family-wing.types';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** For CLIs that need a model named in their config and got none from the agent. */
const OPENAI_COMPATIBLE_DEFAULT_MODEL = 'gpt-5.5';

/** The OpenAI-compatible endpoint an agent asks for, from its own environment and snapshot. */
export interface OpenAiCompatibleEndpoint {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
}

export function openAiCompatibleEndpoint(agent: LaunchAgent, defaults: { readonly model?: string } = {}): OpenAiCompatibleEndpoint {
  return {
    baseUrl: agent.env['OPENAI_BASE_URL'] ?? OPENAI_DEFAULT_BASE_URL,
    apiKey: agent.env['OPENAI_API_KEY'],
    model: agent.model ?? defaults.model ?? OPENAI_COMPATIBLE_DEFAULT_MODEL,
  };
}

/** The variable the CLIs' configs name for the key; the agent's environment carries it. */
export const OPENAI_API_KEY_VARIABLE = 'OPENAI_API_KEY';
