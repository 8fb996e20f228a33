import { AgentTaskRegistry, type AgentTaskRegistration } from './agent-task.registry';

const registration = (overrides: Partial<AgentTaskRegistration> = {}): AgentTaskRegistration => ({
  taskId: 'task-1',
  taskToken: 'syt_token-of-attempt-1',
  repositories: () => [],
  checkout: (name) => Promise.resolve({ path: `/work/${name}`, branch: null, reused: false }),
  ...overrides,
});

describe('AgentTaskRegistry', () => {
  it('given a registered task, opens it only with its own token', () => {
    const registry = new AgentTaskRegistry();
    registry.register(registration());
    expect(registry.authenticate('task-1', 'syt_token-of-attempt-1')?.registration.taskId).toBe('task-1');
    expect(registry.authenticate('task-1', 'syt_token-of-attempt-2')).toBeUndefined();
    expect(registry.authenticate('task-1', '')).toBeUndefined();
    expect(registry.authenticate('task-1', undefined)).toBeUndefined();
    expect(registry.authenticate('task-2', 'syt_token-of-attempt-1')).toBeUndefined();
  });

  it('given a new attempt registered under the same id, the old unregister leaves it in place', () => {
    const registry = new AgentTaskRegistry();
    const unregisterFirst = registry.register(registration());
    const unregisterSecond = registry.register(registration({ taskToken: 'syt_token-of-attempt-2' }));
    unregisterFirst();
    expect(registry.authenticate('task-1', 'syt_token-of-attempt-1')).toBeUndefined();
    expect(registry.authenticate('task-1', 'syt_token-of-attempt-2')).toBeDefined();
    unregisterSecond();
    expect(registry.authenticate('task-1', 'syt_token-of-attempt-2')).toBeUndefined();
  });

  it('given a checkout under way, a second one joins it; a failed one is not kept', async () => {
    let calls = 0;
    let fail = true;
    const registry = new AgentTaskRegistry();
    registry.register(
      registration({
        checkout: (name) => {
          calls += 1;
          return fail ? Promise.reject(Object.assign(new Error('remote down'), { code: 'repo_unavailable' })) : Promise.resolve({ path: `/work/${name}`, branch: 'b', reused: false });
        },
      }),
    );
    const task = registry.authenticate('task-1', 'syt_token-of-attempt-1')!;
    const first = registry.checkout(task, 'api');
    const joined = registry.checkout(task, 'api');
    expect(joined).toBe(first);
    await expect(first).rejects.toMatchObject({ code: 'repo_unavailable' });
    fail = false;
    await expect(registry.checkout(task, 'api')).resolves.toEqual({ path: '/work/api', branch: 'b', reused: false });
    expect(calls).toBe(2);
  });
});
