import path from 'node:path';
import type { Backend } from '../backend/backend.types';
import type { FamilyWing, LaunchEnvironmentRequest, LaunchTarget } from '../family-kit/family-wing.types';
import { OPENAI_API_KEY_VARIABLE, openAiCompatibleEndpoint } from '../family-kit/openai-compatible.endpoint';
import type { OpenCodeDialectId } from './opencode-dialect';
import { DEFAULT_OPENCODE_PROVIDER_ID, writeOpenCodeHome } from './opencode-home.writer';
import { createCodeArtsBackend, createDevEcoBackend, createOpenCodeBackend } from './opencode-ndjson.backend';
import { ensureOpenCodeStore } from './opencode-store.initializer';
import { asksForThinking } from '../backend/thinking-level';
import { classifyOpenCodeFailure } from './opencode-failure.classifier';

/** `--dir` exists from 1.2.1 (and went away in 2.x): the detected version decides. */
const IDENTITY_BACKENDS: Readonly<Record<string, (target: LaunchTarget) => Backend>> = {
  opencode: (target) => createOpenCodeBackend({ cliVersion: target.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  deveco: (target) => createDevEcoBackend({ cliVersion: target.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  codearts: (target) => createCodeArtsBackend({ cliVersion: target.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
};

/** Unknown version: no `--dir`, the process cwd and PWD place the run. */
const plainBackend = (): Backend => createOpenCodeBackend({ bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID });

/** The forks keep their config apart; a profile's command is taken for OpenCode itself. */
const dialectOf = (target: LaunchTarget): OpenCodeDialectId => (target.identity === 'deveco' || target.identity === 'codearts' ? target.identity : 'opencode');

/**
 * `opencode.json` (or the fork's file) in private XDG folders under the runtime's HOME. Two first
 * starts of OpenCode on one store race (its migration fails in one of them): the store is made
 * once, before any run of the runtime. Only OpenCode's layout is known.
 */
async function openCodeEnvironment({ target, agent, home }: LaunchEnvironmentRequest): Promise<Record<string, string>> {
  const dialect = dialectOf(target);
  const endpoint = openAiCompatibleEndpoint(agent);
  const openCodeHome = await writeOpenCodeHome({
    directory: path.join(home, `${dialect}-home`),
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKeyVariable: OPENAI_API_KEY_VARIABLE,
    dialect,
    // Only a model declared `reasoning` has the `--variant` efforts; undeclared, none is sent.
    reasoning: asksForThinking(agent.thinkingLevel),
  });
  if (dialect === 'opencode') {
    const environment = { PATH: [path.dirname(target.executablePath), process.env['PATH'] ?? ''].join(path.delimiter), HOME: home, ...openCodeHome.env };
    const store = await ensureOpenCodeStore({ executablePath: target.executablePath, environment });
    if (store.state === 'failed') throw new Error(`OpenCode could not create its session store: ${store.detail}`);
  }
  return { ...openCodeHome.env };
}

export const OPENCODE_NDJSON_WING: FamilyWing = {
  backendFor: (target) => (IDENTITY_BACKENDS[target.identity ?? ''] ?? plainBackend)(target),
  prepareLaunchEnvironment: openCodeEnvironment,
  classifyFailure: classifyOpenCodeFailure,
};
