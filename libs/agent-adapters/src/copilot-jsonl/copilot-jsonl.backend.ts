import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentSession } from '../backend/agent-session';
import type { TokenUsage } from '@switchyard/contracts';
import type { AgentRunResult, AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { COPILOT_RESUME_REJECTED_PATTERN, createCopilotEventTranslator } from './copilot-event.translator';
import { COPILOT_DEFAULT_PROVIDER } from './copilot-usage.provider';
import { copilotMcpArgs } from './copilot-mcp.config';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { copilotThinking } from './copilot-thinking';
import { copilotSessionEventsPath, readCopilotSessionUsage, takeCopilotUsageFile, usageAddedSince } from './copilot-usage.reader';

export interface CopilotJsonlBackendOptions {
  /**
   * Start fresh runs with `--session-id <uuid>` minted here, so the id is known from the first
   * event rather than only from the closing `result` line (default true; the flag exists in 1.0.102).
   */
  readonly mintSessionId?: boolean;
  /** Directory for the per-run `--usage-output-file` (default: the OS temp directory). */
  readonly usageFileDirectory?: string;
  /** Usage the CLI names no provider for is booked to this one (default: the `copilot` identity's, `github`). */
  readonly provider?: string;
}

/**
 * GitHub Copilot CLI in prompt mode with JSONL output: the prompt is an argument (`--prompt=`), stdin is
 * unused and closed, the CLI exits after the turn. `--allow-all` is what lets tools run without a
 * question nobody could answer; `--no-ask-user` removes the ask-user tool. Offline runs need, in the
 * given env: `COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL` (+ `COPILOT_PROVIDER_TYPE`,
 * `COPILOT_PROVIDER_API_KEY`), `COPILOT_MODEL` or a model option, `COPILOT_AUTO_UPDATE=false`,
 * and a throwaway `HOME` / `COPILOT_HOME` (resume needs the same one); `copilotEnvironment` builds them.
 */
export function createCopilotJsonlBackend(backendOptions: CopilotJsonlBackendOptions = {}): Backend {
  return {
    async execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const provider = backendOptions.provider ?? COPILOT_DEFAULT_PROVIDER;
      // The usage file counts the whole session: a resumed run reports only what it added.
      const usageBefore = options.resumeSessionId
        ? await readCopilotSessionUsage(copilotSessionEventsPath({ env: options.env, sessionId: options.resumeSessionId }), provider)
        : [];
      const mintedSessionId = !options.resumeSessionId && (backendOptions.mintSessionId ?? true) ? randomUUID() : undefined;
      const usageFile = path.join(backendOptions.usageFileDirectory ?? tmpdir(), `copilot-usage-${randomUUID()}.json`);
      const thinking = resolveThinking(options.thinkingLevel, copilotThinking);
      const adapterArgs = [
        // One token, so a prompt that starts with `-` is never read as a flag.
        `--prompt=${prompt}`,
        '--output-format',
        'json',
        '--allow-all',
        '--no-ask-user',
        '--usage-output-file',
        usageFile,
        ...copilotMcpArgs(options.mcp),
        ...(options.model ? ['--model', options.model] : []),
        ...(options.resumeSessionId ? ['--resume', options.resumeSessionId] : []),
        ...(mintedSessionId ? ['--session-id', mintedSessionId] : []),
        ...thinking.args,
      ];
      const sessionId = options.resumeSessionId ?? mintedSessionId;
      const session = createAgentSession({
        run: options,
        adapterArgs,
        createTranslator: (context) => createCopilotEventTranslator(context, { provider, ...(sessionId ? { sessionId } : {}) }),
        // Nothing is read from stdin; closing it keeps the CLI from waiting on piped input.
        start: (input) => input.endStdin(),
        resumeRejectedPattern: COPILOT_RESUME_REJECTED_PATTERN,
      });
      return withOpeningNotes({ ...session, result: session.result.then((result) => withUsageFile({ result, usageFile, usageBefore, provider })) }, thinking.notes);
    },
  };
}

async function withUsageFile(options: {
  readonly result: AgentRunResult;
  readonly usageFile: string;
  readonly usageBefore: readonly TokenUsage[];
  readonly provider: string;
}): Promise<AgentRunResult> {
  const { result } = options;
  const usage = usageAddedSince({ before: options.usageBefore, total: await takeCopilotUsageFile(options.usageFile, options.provider) });
  // `assistant.usage` events, when a CLI version prints them, already gave the totals.
  return result.usage.length > 0 || usage.length === 0 ? result : { ...result, usage };
}
