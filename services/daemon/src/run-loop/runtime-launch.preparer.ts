import path from 'node:path';
import type { ClaimedTask } from '@switchyard/contracts';
import { copilotEnvironment, ensureOpenCodeStore, qwenModelEnvironment, writeCodexHome, writeGeminiHome, writeOpenCodeHome, writePiHome, writeQwenHome } from '@switchyard/agent-adapters';
import type { DetectedRuntime } from '../runtimes/runtime-detector';

/** The provider endpoint and model an agent asks for, from its own environment and snapshot. */
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const CODEX_DEFAULT_MODEL = 'gpt-5.5';
/** For CLIs that need a model named in their config and got none from the agent. */
const OPENAI_COMPATIBLE_DEFAULT_MODEL = 'gpt-5.5';

/**
 * What each CLI needs around it to run unattended and offline-quiet (shared/agent-clis.md): trusted
 * launcher variables, plus the per-runtime files some CLIs read (Codex's `config.toml`, Gemini's
 * settings). The runtime's HOME is shared by its tasks so resumes find the CLI's session store;
 * tasks of agents with different providers on one Codex runtime rewrite its config in turn.
 */
export async function prepareRuntimeLaunch(runtime: DetectedRuntime, task: ClaimedTask, home: string): Promise<Record<string, string>> {
  const openAiBaseUrl = task.agent.env['OPENAI_BASE_URL'] ?? OPENAI_DEFAULT_BASE_URL;
  const model = task.agent.model ?? OPENAI_COMPATIBLE_DEFAULT_MODEL;
  // Identities of a family whose CLI needs its own files (a profile's command gets its family's).
  switch (runtime.identity.profile ? undefined : runtime.identity.identity) {
    case 'qwen-code': {
      const qwenHome = await writeQwenHome({ home });
      const modelEnvironment = qwenModelEnvironment({ baseUrl: openAiBaseUrl, apiKey: task.agent.env['OPENAI_API_KEY'] ?? '', model });
      // The agent's own OPENAI_* values win: they are layered over these.
      return { ...modelEnvironment, ...qwenHome.env };
    }
    case 'copilot':
      return copilotEnvironment({ baseUrl: openAiBaseUrl, model, ...(task.agent.env['OPENAI_API_KEY'] ? { apiKey: task.agent.env['OPENAI_API_KEY'] } : {}) });
    default:
      break;
  }
  switch (runtime.identity.protocolFamily) {
    case 'claude-stream-json':
      return {
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        // As root, bypassPermissions is refused unless the CLI is told it runs sandboxed.
        ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
      };
    case 'codex-app-server': {
      const codexHome = await writeCodexHome({
        directory: path.join(home, 'codex-home'),
        baseUrl: task.agent.env['OPENAI_BASE_URL'] ?? OPENAI_DEFAULT_BASE_URL,
        model: task.agent.model ?? CODEX_DEFAULT_MODEL,
        apiKeyVariable: 'OPENAI_API_KEY',
        codexExecutable: runtime.executablePath,
      });
      return { ...codexHome.env };
    }
    case 'acp':
      // Gemini CLI's own settings; other ACP agents (profiles, later identities) bring their own.
      if (runtime.identity.identity !== 'gemini-cli') return {};
      await writeGeminiHome({ home });
      return { GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    case 'opencode-ndjson': {
      const dialect = runtime.identity.identity === 'deveco' || runtime.identity.identity === 'codearts' ? runtime.identity.identity : 'opencode';
      const openCodeHome = await writeOpenCodeHome({ directory: path.join(home, `${dialect}-home`), baseUrl: openAiBaseUrl, model, apiKeyVariable: 'OPENAI_API_KEY', dialect });
      // Two first starts of OpenCode on one store race (its migration fails in one of them): the
      // store is made once, before any run of the runtime. Only OpenCode's layout is known.
      if (dialect === 'opencode') {
        const environment = { PATH: [path.dirname(runtime.executablePath), process.env['PATH'] ?? ''].join(path.delimiter), HOME: home, ...openCodeHome.env };
        const store = await ensureOpenCodeStore({ executablePath: runtime.executablePath, environment });
        if (store.state === 'failed') throw new Error(`OpenCode could not create its session store: ${store.detail}`);
      }
      return { ...openCodeHome.env };
    }
    case 'pi-json': {
      // Pi (and omp) read an OpenAI-compatible provider from their agent directory; sessions live there too.
      const piHome = await writePiHome({
        directory: path.join(home, runtime.identity.identity === 'omp' ? '.omp/agent' : '.pi/agent'),
        baseUrl: openAiBaseUrl,
        model,
        apiKeyVariable: 'OPENAI_API_KEY',
        dialect: runtime.identity.identity === 'omp' ? 'omp' : 'pi',
      });
      return { ...piHome.env };
    }
    default:
      return {};
  }
}
