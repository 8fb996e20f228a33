import type { Actor } from '@switchyard/contracts';

/** The child task's output is cut here in the note; the whole answer stays in the child's timeline. */
export const CHILD_DONE_OUTPUT_MAX_CHARACTERS = 2_000;

/** Who writes `child_done` notes: the gateway itself, not a caller. */
export const CHILD_DONE_AUTHOR: Actor = { kind: 'system', id: 'child_done' };

/** One note and one review trigger per completed child task, however often its event arrives. */
export const childDoneKey = (childTaskId: string): string => `child_done:${childTaskId}`;

export interface ChildDoneFacts {
  readonly child: { readonly id: string; readonly title: string };
  readonly taskId: string;
  readonly output: string | null;
}

/** The system comment on the parent: `child <title> done: <output, capped>`, then where it came from. */
export function buildChildDoneNote(facts: ChildDoneFacts): string {
  const output = facts.output?.trim() ? facts.output.trim() : '(no output)';
  const capped =
    output.length <= CHILD_DONE_OUTPUT_MAX_CHARACTERS
      ? output
      : `${output.slice(0, CHILD_DONE_OUTPUT_MAX_CHARACTERS)}\n[... ${output.length - CHILD_DONE_OUTPUT_MAX_CHARACTERS} more characters]`;
  return `child ${facts.child.title} done: ${capped}\n\n(child issue ${facts.child.id}, task ${facts.taskId})`;
}
