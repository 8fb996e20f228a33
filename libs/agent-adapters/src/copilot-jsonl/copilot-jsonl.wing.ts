import type { FamilyWing } from '../family-kit/family-wing.types';
import { openAiCompatibleEndpoint } from '../family-kit/openai-compatible.endpoint';
import { copilotEnvironment } from './copilot.environment';
import { createCopilotJsonlBackend } from './copilot-jsonl.backend';

/** Copilot CLI offline against the agent's provider; a profile's command brings its own variables. */
export const COPILOT_JSONL_WING: FamilyWing = {
  backendFor: () => createCopilotJsonlBackend(),
  prepareLaunchEnvironment({ target, agent }) {
    if (target.identity !== 'copilot') return Promise.resolve({});
    const { baseUrl, model, apiKey } = openAiCompatibleEndpoint(agent);
    return Promise.resolve(copilotEnvironment({ baseUrl, model, ...(apiKey ? { apiKey } : {}) }));
  },
};
