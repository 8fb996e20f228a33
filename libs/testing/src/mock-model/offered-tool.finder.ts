import type { ToolOffer } from './conversation.types';

/**
 * The offered function tool a name fragment points at. CLIs rename MCP tools their own way
 * (Claude Code `mcp__<server>__<tool>`, OpenCode `<server>_<tool>`, others the bare name), so a
 * name ending with the fragment wins over one that only contains it.
 */
export function findToolByNameFragment(tools: readonly ToolOffer[], fragment: string): ToolOffer | undefined {
  const functions = tools.filter((tool) => tool.kind === 'function');
  return functions.find((tool) => tool.name.endsWith(fragment)) ?? functions.find((tool) => tool.name.includes(fragment));
}
