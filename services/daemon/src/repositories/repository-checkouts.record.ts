import { z } from 'zod';
import { REPOSITORY_CHECKOUT_MODES, type RepositoryCheckoutMode } from '@switchyard/contracts';
import { readFileInside, writeFileInside } from '../exec-env/safe-path.guard';
import { SWITCHYARD_FOLDER } from '../exec-env/work-directory.preparer';

/** In our git-ignored folder of the work dir: the agent's `git status` never shows it. */
export const REPOSITORY_CHECKOUTS_RECORD_PATH = `${SWITCHYARD_FOLDER}/repositories.json`;
const RECORD_SCHEMA_VERSION = 1;

/** What the work summary needs later about one checkout: above all the commit the work started from. */
export interface RecordedCheckout {
  name: string;
  checkoutMode: RepositoryCheckoutMode;
  branch: string | null;
  baseCommit: string | null;
  /** The bare cache the worktree belongs to (`worktree` mode). */
  cachePath: string | null;
  /** The symlink's target (`local_directory` mode), canonical. */
  localPath: string | null;
  preparedByTaskId: string;
  preparedAt: string;
}

const recordedCheckoutSchema = z.object({
  name: z.string().min(1),
  checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES),
  branch: z.string().min(1).nullable(),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/).nullable(),
  cachePath: z.string().min(1).nullable(),
  localPath: z.string().min(1).nullable(),
  preparedByTaskId: z.string().min(1),
  preparedAt: z.string().min(1),
});
const recordSchema = z.object({
  schemaVersion: z.literal(RECORD_SCHEMA_VERSION),
  checkouts: z.record(z.string(), recordedCheckoutSchema),
});

/** Every checkout recorded in the work dir by name; empty when there is no record or it is unreadable. */
export async function readRepositoryCheckouts(workDirectory: string): Promise<Record<string, RecordedCheckout>> {
  let raw: Buffer | undefined;
  try {
    raw = await readFileInside({ root: workDirectory, relativePath: REPOSITORY_CHECKOUTS_RECORD_PATH });
  } catch {
    // Behind a symlink or not a regular file: not ours to trust.
    return {};
  }
  if (raw === undefined) return {};
  try {
    const parsed = recordSchema.safeParse(JSON.parse(raw.toString('utf8')));
    return parsed.success ? parsed.data.checkouts : {};
  } catch {
    return {};
  }
}

// Checkouts of one work dir may be prepared concurrently (the agent's `yard repo checkout`); their
// read-modify-write of the one file is queued per work dir.
const writes = new Map<string, Promise<unknown>>();

export async function recordRepositoryCheckout(workDirectory: string, checkout: RecordedCheckout): Promise<void> {
  const previous = writes.get(workDirectory) ?? Promise.resolve();
  const write = previous
    .catch(() => undefined)
    .then(async () => {
      const checkouts = { ...(await readRepositoryCheckouts(workDirectory)), [checkout.name]: checkout };
      const content = `${JSON.stringify({ schemaVersion: RECORD_SCHEMA_VERSION, checkouts }, null, 2)}\n`;
      await writeFileInside({ root: workDirectory, relativePath: REPOSITORY_CHECKOUTS_RECORD_PATH, content, mode: 0o600 });
    });
  writes.set(workDirectory, write);
  try {
    await write;
  } finally {
    if (writes.get(workDirectory) === write) writes.delete(workDirectory);
  }
}
