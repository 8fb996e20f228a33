import path from 'node:path';
import type { FamilyWing } from '../family-kit/family-wing.types';
import { OPENAI_API_KEY_VARIABLE, openAiCompatibleEndpoint } from '../family-kit/openai-compatible.endpoint';
import { createOmpBackend, createPiBackend } from './pi-json.backend';
import { writePiHome } from './pi-home.writer';
import { asksForThinking } from '../backend/thinking-level';

/** Pi (and omp) read an OpenAI-compatible provider from their agent directory; sessions live there too. */
export const PI_JSON_WING: FamilyWing = {
  backendFor: (target) => (target.identity === 'omp' ? createOmpBackend() : createPiBackend()),
  async prepareLaunchEnvironment({ target, agent, home }) {
    const omp = target.identity === 'omp';
    const endpoint = openAiCompatibleEndpoint(agent);
    const piHome = await writePiHome({
      directory: path.join(home, omp ? '.omp/agent' : '.pi/agent'),
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      apiKeyVariable: OPENAI_API_KEY_VARIABLE,
      dialect: omp ? 'omp' : 'pi',
      // Pi drops `--thinking` for a model not declared `reasoning`; declared, it sends `reasoning_effort`.
      reasoning: asksForThinking(agent.thinkingLevel),
    });
    return { ...piHome.env };
  },
};
