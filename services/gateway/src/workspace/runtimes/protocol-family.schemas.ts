import { z } from 'zod';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';

export const runtimeIdentityViewSchema = z.object({
  identity: z.string().describe('Stable id; a detected runtime is `<daemonId>-<identity>`'),
  displayName: z.string(),
  commandName: z.string().describe('Executable looked up on the daemon’s PATH'),
  launchArgs: z.array(z.string()).describe('The identity’s own subcommand or flags, before the adapter’s arguments'),
  provider: z.string().nullable(),
  contextFileName: z.string().describe('Instruction file written into the work directory'),
  skillsDirectory: z.string(),
  mcpDelivery: z.string().describe('How MCP servers reach the CLI; `none` when they cannot'),
  inlineRuntimeBrief: z.boolean().describe('The runtime brief also goes in front of the prompt (the CLI reads no context file)'),
  modelDiscovery: z.array(z.string()).nullable().describe('Arguments that list the CLI’s models, when it offers that'),
  acpResumeMethod: z.enum(['session/resume', 'session/load']).nullable(),
  verification: z.enum(['real-cli', 'recorded-frames']).describe('`real-cli`: proven in CI against the real CLI; `recorded-frames`: against frames of its documented format'),
});

export const protocolFamilyViewSchema = z.object({
  family: z.enum(PROTOCOL_FAMILIES),
  displayName: z.string(),
  /** Display names of its identities, kept for clients of the first version of this endpoint. */
  runtimes: z.array(z.string()),
  adapter: z.enum(['available', 'planned']),
  launch: z.string(),
  promptDelivery: z.string(),
  resume: z.string(),
  cancel: z.string(),
  usage: z.string(),
  identities: z.array(runtimeIdentityViewSchema),
});
export const protocolFamilyListSchema = z.object({ families: z.array(protocolFamilyViewSchema) });
export type ProtocolFamilyView = z.infer<typeof protocolFamilyViewSchema>;
export type RuntimeIdentityView = z.infer<typeof runtimeIdentityViewSchema>;
