import type { DaemonRequestClient, RepositoryView } from './repo-command.client';
import type { RepoCommand } from './repo-command.parser';

export interface RepoCommandIo {
  readonly print: (line: string) => void;
  /** Notes for a person, never on stdout (which `--json` keeps to JSON). */
  readonly note: (line: string) => void;
  readonly json: boolean;
}

/** One line per repository, tab-separated: name, mode, checked out or not, its path (`-` before). */
export function renderRepository(repository: RepositoryView): string {
  return [repository.name, repository.checkoutMode, repository.checkedOut ? 'checked out' : 'not checked out', repository.path ?? '-'].join('\t');
}

/** Runs one `yard repo` command against the task's daemon; a refusal rejects with its code. */
export async function runRepoCommand(command: RepoCommand, daemon: DaemonRequestClient, io: RepoCommandIo): Promise<number> {
  switch (command.kind) {
    case 'list': {
      const listed = await daemon.listRepositories();
      if (io.json) io.print(JSON.stringify(listed));
      else if (listed.repositories.length === 0) io.note('yard: this task has no repositories');
      else listed.repositories.map(renderRepository).forEach(io.print);
      return 0;
    }
    case 'checkout': {
      const checkout = await daemon.checkout(command.repositoryName);
      if (io.json) io.print(JSON.stringify(checkout));
      else io.print([checkout.path, checkout.branch ?? '(no branch)', ...(checkout.reused ? ['(already checked out)'] : [])].join('\t'));
      return 0;
    }
  }
}
