import type { Backend } from '../backend/backend.types';
import type { FamilyWing } from '../family-kit/family-wing.types';
import type { RuntimeIdentityDescriptor } from '../family-kit/runtime-identity.types';
import { classifyAcpFailure } from './acp-failure.classifier';
import { createAcpBackend, createGeminiAcpBackend } from './acp.backend';
import { writeGeminiHome } from './gemini-home.writer';

/**
 * ACP agents differ only in launch arguments and documented resume method, both catalog data: one
 * shared client. Gemini CLI has its own backend (its `--model`, its same-minute resume guard); a
 * profile's fixed args carry its ACP subcommand (`kimi acp`, `qodercli --acp`).
 */
function acpBackendFor(descriptor: RuntimeIdentityDescriptor | undefined): Backend {
  if (descriptor?.identity === 'gemini-cli') return createGeminiAcpBackend();
  if (!descriptor) return createAcpBackend({ adapterArgs: [] });
  return createAcpBackend({
    adapterArgs: descriptor.launchArgs,
    ...(descriptor.provider ? { provider: descriptor.provider } : {}),
    ...(descriptor.acpResumeMethod ? { resumeMethod: descriptor.acpResumeMethod } : {}),
  });
}

export const ACP_WING: FamilyWing = {
  backendFor: (_target, builtIn) => acpBackendFor(builtIn),
  classifyFailure: classifyAcpFailure,
  async prepareLaunchEnvironment({ target, home }): Promise<Record<string, string>> {
    // Gemini CLI's own settings; other ACP agents (profiles, later identities) bring their own.
    if (target.identity !== 'gemini-cli') return {};
    await writeGeminiHome({ home });
    return { GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
  },
};
