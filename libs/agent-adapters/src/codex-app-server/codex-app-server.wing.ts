import path from 'node:path';
import type { FamilyWing } from '../family-kit/family-wing.types';
import { OPENAI_API_KEY_VARIABLE, openAiCompatibleEndpoint } from '../family-kit/openai-compatible.endpoint';
import { createCodexAppServerBackend } from './codex-app-server.backend';
import { writeCodexHome } from './codex-home.writer';
import { classifyCodexFailure } from './codex-failure.classifier';

/** The model Codex is configured with when the agent names none. */
const CODEX_DEFAULT_MODEL = 'gpt-5.5';

/**
 * Codex reads its provider and model from a `config.toml` in a throwaway `CODEX_HOME` under the
 * runtime's HOME; agents with different providers on one runtime rewrite it in turn.
 */
export const CODEX_APP_SERVER_WING: FamilyWing = {
  backendFor: () => createCodexAppServerBackend(),
  classifyFailure: classifyCodexFailure,
  async prepareLaunchEnvironment({ target, agent, home }) {
    const endpoint = openAiCompatibleEndpoint(agent, { model: CODEX_DEFAULT_MODEL });
    const codexHome = await writeCodexHome({
      directory: path.join(home, 'codex-home'),
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      apiKeyVariable: OPENAI_API_KEY_VARIABLE,
      codexExecutable: target.executablePath,
    });
    return { ...codexHome.env };
  },
};
