/* eslint-disable @typescript-eslint/no-require-imports -- the build is CommonJS (ADR 0001): a
   relative `import()` would need ESM resolution (explicit `.js`) that jest does not map, and it is
   compiled to this same `require` anyway. Each family is required on first use, never at boot. */
import type { ProtocolFamily } from '@switchyard/contracts';
import type { FamilyWing } from '../family-kit/family-wing.types';

/**
 * How each family's folder is loaded: a `Record`, so a new family fails to compile until it has
 * one. Nothing here is required until a runtime of the family is driven: the ACP SDK (~12 MiB at
 * require) and the other adapters stay out of a daemon that never runs them.
 */
const FAMILY_WING_LOADERS: Readonly<Record<ProtocolFamily, () => FamilyWing>> = {
  'claude-stream-json': () => (require('../claude-stream-json/claude-stream-json.wing') as typeof import('../claude-stream-json/claude-stream-json.wing')).CLAUDE_STREAM_JSON_WING,
  'codex-app-server': () => (require('../codex-app-server/codex-app-server.wing') as typeof import('../codex-app-server/codex-app-server.wing')).CODEX_APP_SERVER_WING,
  acp: () => (require('../acp/acp.wing') as typeof import('../acp/acp.wing')).ACP_WING,
  'opencode-ndjson': () => (require('../opencode-ndjson/opencode-ndjson.wing') as typeof import('../opencode-ndjson/opencode-ndjson.wing')).OPENCODE_NDJSON_WING,
  'pi-json': () => (require('../pi-json/pi-json.wing') as typeof import('../pi-json/pi-json.wing')).PI_JSON_WING,
  'copilot-jsonl': () => (require('../copilot-jsonl/copilot-jsonl.wing') as typeof import('../copilot-jsonl/copilot-jsonl.wing')).COPILOT_JSONL_WING,
  'openclaw-jsonl': () => (require('../openclaw-jsonl/openclaw-jsonl.wing') as typeof import('../openclaw-jsonl/openclaw-jsonl.wing')).OPENCLAW_JSONL_WING,
  'dsh-jsonl': () => (require('../dsh-jsonl/dsh-jsonl.wing') as typeof import('../dsh-jsonl/dsh-jsonl.wing')).DSH_JSONL_WING,
  'antigravity-json': () => (require('../antigravity-json/antigravity-json.wing') as typeof import('../antigravity-json/antigravity-json.wing')).ANTIGRAVITY_JSON_WING,
};

/** The family's wing, required on the first call (Node keeps it loaded after that). */
export function familyWing(family: ProtocolFamily): FamilyWing {
  return FAMILY_WING_LOADERS[family]();
}
