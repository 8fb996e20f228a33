import { createHash, timingSafeEqual } from 'node:crypto';
import type { RepositoryCheckoutMode } from '@switchyard/contracts';

/** One of the task's repositories as the agent sees it: never its URL or credential. */
export interface AgentRepositoryView {
  readonly name: string;
  readonly checkoutMode: RepositoryCheckoutMode;
  readonly checkedOut: boolean;
  /** Where it is in the work dir once checked out, else null. */
  readonly path: string | null;
}

/** What a checkout answers the agent (`RepositoryCheckout` of `../repositories` fits as is). */
export interface AgentRepositoryCheckout {
  readonly path: string;
  /** The task branch; null for a local directory that is not on a branch. */
  readonly branch: string | null;
  /** It was already there: checked out at the run's start, by an earlier request, or by an earlier task in this work dir. */
  readonly reused: boolean;
}

/** What a running task offers its agent; the task runner registers it for the run's duration. */
export interface AgentTaskRegistration {
  readonly taskId: string;
  readonly taskToken: string;
  readonly repositories: () => readonly AgentRepositoryView[];
  /** Throws an error with a string `code` (`repo_unavailable`, ...) when the checkout fails. */
  readonly checkout: (repositoryName: string) => Promise<AgentRepositoryCheckout>;
}

export interface RegisteredTask {
  readonly registration: AgentTaskRegistration;
  readonly tokenDigest: Buffer;
  /** The checkout under way per repository name: a second request joins it. */
  readonly checkouts: Map<string, Promise<AgentRepositoryCheckout>>;
}

const digestOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();
// Compared against when the task is unknown, so both refusals cost the same.
const NO_TASK_DIGEST = digestOf('');

/** The tasks running now, by id; a request is theirs only with their token. */
export class AgentTaskRegistry {
  private readonly tasks = new Map<string, RegisteredTask>();

  /** Returns `unregister`; a later registration under the same id (a new attempt) replaces this one and is not undone by it. */
  register(registration: AgentTaskRegistration): () => void {
    const registered: RegisteredTask = { registration, tokenDigest: digestOf(registration.taskToken), checkouts: new Map() };
    this.tasks.set(registration.taskId, registered);
    return () => {
      if (this.tasks.get(registration.taskId) === registered) this.tasks.delete(registration.taskId);
    };
  }

  /** The task when `token` is its token, compared in constant time on digests; else undefined. */
  authenticate(taskId: string, token: string | undefined): RegisteredTask | undefined {
    const registered = this.tasks.get(taskId);
    const matches = timingSafeEqual(registered?.tokenDigest ?? NO_TASK_DIGEST, digestOf(token ?? ''));
    return registered && token && matches ? registered : undefined;
  }

  /** One checkout at a time per repository: a request while one runs gets that one's answer. */
  checkout(task: RegisteredTask, repositoryName: string): Promise<AgentRepositoryCheckout> {
    const running = task.checkouts.get(repositoryName);
    if (running) return running;
    const checkout = Promise.resolve()
      .then(() => task.registration.checkout(repositoryName))
      .finally(() => task.checkouts.delete(repositoryName));
    task.checkouts.set(repositoryName, checkout);
    return checkout;
  }
}
