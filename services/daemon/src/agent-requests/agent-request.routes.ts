import { REPOSITORY_NAME_PATTERN } from '@switchyard/contracts';
import { AgentRequestRefusal } from './agent-request.refusal';

/** What an agent may ask the daemon for, each about its own task. */
export type AgentRequestRoute =
  | { readonly kind: 'list_repositories'; readonly taskId: string }
  | { readonly kind: 'checkout_repository'; readonly taskId: string; readonly repositoryName: string };

const LIST_PATH = /^\/v1\/tasks\/([^/]+)\/repositories$/;
const CHECKOUT_PATH = /^\/v1\/tasks\/([^/]+)\/repositories\/([^/]+)\/checkout$/;

/** Matches a request line to its route; throws the refusal otherwise. Pure. */
export function matchAgentRequestRoute(method: string, url: string): AgentRequestRoute {
  const pathname = url.split('?', 1)[0] ?? '';
  const list = LIST_PATH.exec(pathname);
  if (list) {
    requireMethod(method, 'GET', pathname);
    return { kind: 'list_repositories', taskId: decodedSegment(list[1]!, pathname) };
  }
  const checkout = CHECKOUT_PATH.exec(pathname);
  if (checkout) {
    requireMethod(method, 'POST', pathname);
    const repositoryName = decodedSegment(checkout[2]!, pathname);
    if (!REPOSITORY_NAME_PATTERN.test(repositoryName)) {
      throw new AgentRequestRefusal('invalid_repository_name', `${JSON.stringify(repositoryName)} is not a repository name (lowercase letters, digits, . _ -; at most 63)`);
    }
    return { kind: 'checkout_repository', taskId: decodedSegment(checkout[1]!, pathname), repositoryName };
  }
  throw new AgentRequestRefusal('route_not_found', `no route ${method} ${pathname}`);
}

function requireMethod(method: string, expected: string, pathname: string): void {
  if (method !== expected) throw new AgentRequestRefusal('method_not_allowed', `${pathname} takes ${expected}, not ${method}`);
}

function decodedSegment(segment: string, pathname: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AgentRequestRefusal('route_not_found', `no route for the malformed path ${pathname}`);
  }
}
