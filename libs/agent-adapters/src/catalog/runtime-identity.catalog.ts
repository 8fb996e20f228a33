import { PROTOCOL_FAMILIES, type ProtocolFamily } from '@switchyard/contracts';
import { ACP_FAMILY } from '../acp/acp.catalog';
import { ANTIGRAVITY_JSON_FAMILY } from '../antigravity-json/antigravity-json.catalog';
import { CLAUDE_STREAM_JSON_FAMILY } from '../claude-stream-json/claude-stream-json.catalog';
import { CODEX_APP_SERVER_FAMILY } from '../codex-app-server/codex-app-server.catalog';
import { COPILOT_JSONL_FAMILY } from '../copilot-jsonl/copilot-jsonl.catalog';
import { DSH_JSONL_FAMILY } from '../dsh-jsonl/dsh-jsonl.catalog';
import { OPENCLAW_JSONL_FAMILY } from '../openclaw-jsonl/openclaw-jsonl.catalog';
import { OPENCODE_NDJSON_FAMILY } from '../opencode-ndjson/opencode-ndjson.catalog';
import { PI_JSON_FAMILY } from '../pi-json/pi-json.catalog';
import type { ProtocolFamilyCatalogEntry, RuntimeIdentityDescriptor, RuntimeLayout, RuntimeTarget, SessionStoreLayout } from '../family-kit/runtime-identity.types';

/**
 * Every family of the contracts' `PROTOCOL_FAMILIES`, each from its own folder: a `Record`, so a
 * new family fails to compile until its folder has a catalog entry here.
 */
export const PROTOCOL_FAMILY_CATALOG: Readonly<Record<ProtocolFamily, ProtocolFamilyCatalogEntry>> = {
  'claude-stream-json': CLAUDE_STREAM_JSON_FAMILY,
  'codex-app-server': CODEX_APP_SERVER_FAMILY,
  acp: ACP_FAMILY,
  'opencode-ndjson': OPENCODE_NDJSON_FAMILY,
  'pi-json': PI_JSON_FAMILY,
  'copilot-jsonl': COPILOT_JSONL_FAMILY,
  'openclaw-jsonl': OPENCLAW_JSONL_FAMILY,
  'dsh-jsonl': DSH_JSONL_FAMILY,
  'antigravity-json': ANTIGRAVITY_JSON_FAMILY,
};

/**
 * Every built-in runtime identity (design §5), family by family in the contracts' order. Launch
 * subcommands, files and resume methods are the CLIs' documented behaviour; `verification` says
 * which are proven against the real CLI in CI.
 */
export const RUNTIME_IDENTITY_CATALOG: readonly RuntimeIdentityDescriptor[] = PROTOCOL_FAMILIES.flatMap((family) => PROTOCOL_FAMILY_CATALOG[family].identities);

/** The built-in identity with this id, if any. */
export function runtimeIdentityDescriptor(identityId: string): RuntimeIdentityDescriptor | undefined {
  return RUNTIME_IDENTITY_CATALOG.find((entry) => entry.identity === identityId);
}


/**
 * The built-in identity a target names. The identity must belong to the family, so a profile
 * named like a built-in never borrows another family's files or store.
 */
export function builtInIdentityOf(target: RuntimeTarget): RuntimeIdentityDescriptor | undefined {
  const descriptor = target.identity ? runtimeIdentityDescriptor(target.identity) : undefined;
  return descriptor && descriptor.protocolFamily === target.protocolFamily ? descriptor : undefined;
}

/** The layout a family gives a command it does not know by name (a runtime profile). */
export function familyLayout(family: ProtocolFamily): RuntimeLayout {
  return { ...PROTOCOL_FAMILY_CATALOG[family].defaults, settingsFile: null };
}

/** The files a CLI reads: a built-in identity's own layout, or its family's for a profile's command. */
export function runtimeLayoutFor(target: RuntimeTarget): RuntimeLayout {
  const descriptor = builtInIdentityOf(target);
  if (!descriptor) return familyLayout(target.protocolFamily);
  const { contextFileName, skillsDirectory, mcpDelivery, settingsFile, inlineRuntimeBrief } = descriptor;
  return { contextFileName, skillsDirectory, mcpDelivery, settingsFile, inlineRuntimeBrief };
}

/** Where the CLI keeps its sessions, when that is known and verified; null for the rest and for profiles. */
export function sessionStoreLayoutFor(target: RuntimeTarget): SessionStoreLayout | null {
  return builtInIdentityOf(target)?.sessionStore ?? null;
}
