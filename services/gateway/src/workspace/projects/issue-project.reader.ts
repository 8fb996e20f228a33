import type { RawQueryRunner } from '../database/returning-rows';

/**
 * The `project` an issue names (free text; null when none), or undefined when the workspace has
 * no such issue. Here rather than in `issues/`: the enqueue path needs it, and the issues folder
 * already reaches the tasks folder (its triggers), so importing it back would close a cycle.
 */
export async function readIssueProject(runner: RawQueryRunner, options: { readonly workspaceId: string; readonly issueId: string }): Promise<string | null | undefined> {
  const [row] = await runner.query<Array<{ project: string | null }>>('select project from issue where workspace_id = $1 and id = $2', [options.workspaceId, options.issueId]);
  return row ? row.project : undefined;
}
