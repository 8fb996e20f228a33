import { AgentRequestRefusal } from './agent-request.refusal';
import { matchAgentRequestRoute } from './agent-request.routes';

const refusalOf = (method: string, url: string): { code: string; status: number } | undefined => {
  try {
    matchAgentRequestRoute(method, url);
    return undefined;
  } catch (error) {
    if (!(error instanceof AgentRequestRefusal)) throw error;
    return { code: error.code, status: error.status };
  }
};

describe('matchAgentRequestRoute', () => {
  it('given the list route, names the task', () => {
    expect(matchAgentRequestRoute('GET', '/v1/tasks/task-1/repositories')).toEqual({ kind: 'list_repositories', taskId: 'task-1' });
    expect(matchAgentRequestRoute('GET', '/v1/tasks/task-1/repositories?verbose=1')).toEqual({ kind: 'list_repositories', taskId: 'task-1' });
  });

  it('given the checkout route, names the task and the repository, decoded', () => {
    expect(matchAgentRequestRoute('POST', '/v1/tasks/task%201/repositories/web-app.v2/checkout')).toEqual({ kind: 'checkout_repository', taskId: 'task 1', repositoryName: 'web-app.v2' });
  });

  it.each([
    ['POST', '/v1/tasks/task-1/repositories/..%2F..%2Fetc/checkout', 'invalid_repository_name', 400],
    ['POST', '/v1/tasks/task-1/repositories/.git/checkout', 'invalid_repository_name', 400],
    ['POST', '/v1/tasks/task-1/repositories/Api/checkout', 'invalid_repository_name', 400],
    ['POST', `/v1/tasks/task-1/repositories/${'a'.repeat(64)}/checkout`, 'invalid_repository_name', 400],
    ['POST', '/v1/tasks/task-1/repositories', 'method_not_allowed', 405],
    ['GET', '/v1/tasks/task-1/repositories/api/checkout', 'method_not_allowed', 405],
    ['GET', '/v1/tasks/task-1', 'route_not_found', 404],
    ['GET', '/v1/tasks/task-1/repositories/', 'route_not_found', 404],
    ['GET', '/v1/tasks/%E0%A4%A/repositories', 'route_not_found', 404],
    ['GET', '/', 'route_not_found', 404],
  ])('refuses %s %s with %s (%d)', (method, url, code, status) => {
    expect(refusalOf(method, url)).toEqual({ code, status });
  });
});
