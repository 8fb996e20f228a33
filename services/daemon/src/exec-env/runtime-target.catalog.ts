import { familyLayout, runtimeIdentityDescriptor, type McpDelivery, type ProtocolFamily } from '@switchyard/contracts';

export type { McpDelivery } from '@switchyard/contracts';

/** Which CLI the environment is for: its wire family and, when known, its identity (`qwen-code`, `gemini-cli`). */
export interface RuntimeTarget {
  protocolFamily: ProtocolFamily;
  identity?: string | null;
}

export interface RuntimeLayout {
  /** Instruction file the CLI reads from its working directory. */
  contextFileName: string;
  /** Work-directory-relative folder holding `<skill>/SKILL.md`. */
  skillsDirectory: string;
  mcpDelivery: McpDelivery;
  /** Work-directory-relative settings file, for `gemini-settings-file`. */
  settingsFile: string | null;
  /** The CLI reads no context file: the runtime brief also goes in front of the prompt. */
  inlineRuntimeBrief: boolean;
}

/**
 * The files a CLI reads, from the shared runtime catalog: a built-in identity's own layout, or its
 * family's for a command known only by family (a runtime profile). The identity must belong to the
 * family, so a profile named like a built-in never borrows another family's files.
 */
export function runtimeLayoutFor(target: RuntimeTarget): RuntimeLayout {
  const descriptor = target.identity ? runtimeIdentityDescriptor(target.identity) : undefined;
  if (!descriptor || descriptor.protocolFamily !== target.protocolFamily) return familyLayout(target.protocolFamily);
  const { contextFileName, skillsDirectory, mcpDelivery, settingsFile, inlineRuntimeBrief } = descriptor;
  return { contextFileName, skillsDirectory, mcpDelivery, settingsFile, inlineRuntimeBrief };
}
