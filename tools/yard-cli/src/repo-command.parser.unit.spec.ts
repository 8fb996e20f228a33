import { DaemonChannelError, parseRepoCommand, RepoCommandError, resolveDaemonChannel, type RepoCommandInput } from './repo-command.parser';

const parse = (input: Partial<RepoCommandInput>) => parseRepoCommand({ verb: undefined, words: [], ...input });
const inTask = { SWITCHYARD_DAEMON_SOCKET: '/home/me/.switchyard/agent-tools/daemon.sock', SWITCHYARD_TASK_ID: 'task-7', SWITCHYARD_TOKEN: 'syt_task-token' };

describe('parseRepoCommand', () => {
  it('lists, and checks out one named repository', () => {
    expect(parse({ verb: 'list' })).toEqual({ kind: 'list' });
    expect(parse({ verb: 'checkout', words: ['api'] })).toEqual({ kind: 'checkout', repositoryName: 'api' });
  });

  it.each([
    [{ verb: 'checkout' }, /missing the repository name/],
    [{ verb: 'checkout', words: [' '] }, /missing the repository name/],
    [{ verb: 'checkout', words: ['api', 'web'] }, /takes one repository, got: api web/],
    [{ verb: 'list', words: ['api'] }, /takes no more arguments/],
    [{ verb: 'clone' }, /unknown command: repo clone/],
    [{ verb: undefined }, /unknown command: repo$/],
  ] as Array<[Partial<RepoCommandInput>, RegExp]>)('refuses %j with a clear message', (input, message) => {
    expect(() => parse(input)).toThrow(RepoCommandError);
    expect(() => parse(input)).toThrow(message);
  });
});

describe('resolveDaemonChannel', () => {
  it('given a task’s env, reaches its daemon with its id and token; --token wins', () => {
    expect(resolveDaemonChannel({ env: inTask })).toEqual({ socketPath: inTask.SWITCHYARD_DAEMON_SOCKET, taskId: 'task-7', token: 'syt_task-token' });
    expect(resolveDaemonChannel({ env: inTask, token: 'syt_other' }).token).toBe('syt_other');
  });

  it.each([
    [{ ...inTask, SWITCHYARD_DAEMON_SOCKET: undefined }, /not running inside a Switchyard task: SWITCHYARD_DAEMON_SOCKET/],
    [{ ...inTask, SWITCHYARD_TASK_ID: '' }, /not running inside a Switchyard task: SWITCHYARD_TASK_ID/],
    [{ ...inTask, SWITCHYARD_TOKEN: undefined }, /no task token/],
  ])('refuses an env without the task (%#)', (env, message) => {
    expect(() => resolveDaemonChannel({ env })).toThrow(DaemonChannelError);
    expect(() => resolveDaemonChannel({ env })).toThrow(message);
  });
});
