import { access } from 'node:fs/promises';
import path from 'node:path';
import { sessionStoreLayoutFor } from '../catalog/runtime-identity.catalog';
import type { RuntimeTarget } from '../family-kit/runtime-identity.types';
import type { SessionStoreLayout } from '../family-kit/runtime-identity.types';

/** What the probe found of the CLI's session store; `unverified` for CLIs whose store is not checked. */
export type SessionStoreState = { readonly state: 'present' } | { readonly state: 'missing'; readonly detail: string } | { readonly state: 'unverified' };

interface SessionFileRequest {
  readonly layout: SessionStoreLayout;
  readonly environment: Readonly<Record<string, string>>;
  readonly workDirectory: string;
  readonly sessionId: string;
}

/**
 * The file a CLI keeps a session in, by its identity's layout in the runtime catalog (Claude Code:
 * `<CLAUDE_CONFIG_DIR or ~/.claude>/projects/<slug>/<id>.jsonl`; Qwen Code:
 * `<QWEN_RUNTIME_DIR, QWEN_HOME or ~/.qwen>/projects/<slug>/chats/<id>.jsonl`), or null when the
 * project folder would be shortened by the CLI in a way not reproduced here.
 */
export function sessionFilePath(request: SessionFileRequest): string | null {
  const { layout, environment } = request;
  const projectFolder = request.workDirectory.replace(/[^a-zA-Z0-9]/g, '-');
  if (layout.projectFolderMaxLength !== null && projectFolder.length > layout.projectFolderMaxLength) return null;
  const rootFromEnvironment = layout.rootEnv.map((name) => environment[name]).find((value) => value !== undefined && value !== '');
  // A relative root is resolved from the CLI's cwd, as the CLIs do.
  const root = rootFromEnvironment ? path.resolve(request.workDirectory, rootFromEnvironment) : path.join(environment['HOME'] ?? '', layout.homeFolder);
  const relative = layout.sessionFile.replaceAll('{project}', projectFolder).replaceAll('{sessionId}', request.sessionId);
  return path.join(root, relative);
}

/**
 * Looks for the CLI's own record of a session in the child's environment. Identities whose store
 * the catalog does not describe (Codex, ACP agents, OpenCode, Pi, Copilot, profiles...) are
 * `unverified`: their own rejection of the resume drives the fresh retry.
 */
export async function probeSessionStore(options: {
  readonly target: RuntimeTarget;
  readonly environment: Readonly<Record<string, string>>;
  readonly workDirectory: string;
  readonly sessionId: string;
}): Promise<SessionStoreState> {
  const layout = sessionStoreLayoutFor(options.target);
  if (layout === null) return { state: 'unverified' };
  const file = sessionFilePath({ ...options, layout });
  if (file === null) return { state: 'unverified' };
  try {
    await access(file);
    return { state: 'present' };
  } catch {
    return { state: 'missing', detail: `no ${options.target.identity ?? options.target.protocolFamily} session file at ${file}` };
  }
}
