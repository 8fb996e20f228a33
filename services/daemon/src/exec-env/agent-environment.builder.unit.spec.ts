import { buildAgentEnvironment, isBlockedAgentEnvironmentKey } from './agent-environment.builder';
import { sampleClaimedTask } from './exec-env.spec-helper';

const task = sampleClaimedTask();
const base = { path: '/usr/bin:/bin', home: '/homes/task-1', temporaryDirectory: '/work/task-1/.switchyard/tmp' };
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Test agent',
  GIT_AUTHOR_EMAIL: 'agent-agent-1@agents.switchyard.invalid',
  GIT_COMMITTER_NAME: 'Test agent',
  GIT_COMMITTER_EMAIL: 'agent-agent-1@agents.switchyard.invalid',
};
const TASK_VARIABLES = {
  SWITCHYARD_TASK_ID: task.taskId,
  SWITCHYARD_TOKEN: task.taskToken,
  SWITCHYARD_WORKSPACE_ID: 'workspace-1',
  SWITCHYARD_AGENT_ID: 'agent-1',
  SWITCHYARD_ATTEMPT: '1',
  SWITCHYARD_ISSUE_ID: 'issue-1',
};

describe('buildAgentEnvironment', () => {
  it('given a callback, puts the yard folder first on PATH and names the gateway', () => {
    const { environment } = buildAgentEnvironment({ base, agentEnvironment: {}, task, callback: { apiUrl: 'http://127.0.0.1:8080', binDirectory: '/daemon/agent-tools/bin' } });
    expect(environment['PATH']).toBe('/daemon/agent-tools/bin:/usr/bin:/bin');
    expect(environment['SWITCHYARD_API_URL']).toBe('http://127.0.0.1:8080');
  });

  it('given a daemon socket, names it for `yard repo`; given none, sets nothing', () => {
    const callback = { apiUrl: undefined, binDirectory: undefined };
    const withSocket = buildAgentEnvironment({ base, agentEnvironment: {}, task, callback: { ...callback, daemonSocket: '/daemon/agent-tools/daemon.sock' } });
    expect(withSocket.environment['SWITCHYARD_DAEMON_SOCKET']).toBe('/daemon/agent-tools/daemon.sock');
    expect(buildAgentEnvironment({ base, agentEnvironment: {}, task, callback }).environment).not.toHaveProperty('SWITCHYARD_DAEMON_SOCKET');
  });

  it('never lets the agent env forge the daemon socket', () => {
    const { environment, rejectedKeys } = buildAgentEnvironment({ base, agentEnvironment: { SWITCHYARD_DAEMON_SOCKET: '/tmp/evil.sock' }, task });
    expect(environment).not.toHaveProperty('SWITCHYARD_DAEMON_SOCKET');
    expect(rejectedKeys).toEqual([{ key: 'SWITCHYARD_DAEMON_SOCKET', origin: 'agent', reason: 'blocked' }]);
  });

  it('given a chat task, sets no issue id; given no gateway, no API URL', () => {
    const chat = { ...task, source: { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'message-1' } } as const;
    const { environment } = buildAgentEnvironment({ base, agentEnvironment: {}, task: chat, callback: { apiUrl: undefined, binDirectory: undefined } });
    expect(environment).not.toHaveProperty('SWITCHYARD_ISSUE_ID');
    expect(environment).not.toHaveProperty('SWITCHYARD_API_URL');
    expect(environment['PATH']).toBe('/usr/bin:/bin');
    expect(environment['SWITCHYARD_TOKEN']).toBe(task.taskToken);
  });

  it('names the agent as the author of its commits, unless its own env says otherwise', () => {
    expect(buildAgentEnvironment({ base, agentEnvironment: {}, task }).environment).toMatchObject(GIT_IDENTITY);
    const own = buildAgentEnvironment({ base, agentEnvironment: { GIT_AUTHOR_EMAIL: 'bot@team.example' }, task }).environment;
    expect(own).toMatchObject({ GIT_AUTHOR_EMAIL: 'bot@team.example', GIT_COMMITTER_EMAIL: GIT_IDENTITY.GIT_COMMITTER_EMAIL });
  });

  it('contains exactly the base, the agent variables and the task variables', () => {
    const { environment, rejectedKeys } = buildAgentEnvironment({ base, agentEnvironment: { GITHUB_ORG: 'acme', _PRIVATE: 'ok' }, task });
    expect(environment).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/homes/task-1',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: '/work/task-1/.switchyard/tmp',
      ...GIT_IDENTITY,
      GITHUB_ORG: 'acme',
      _PRIVATE: 'ok',
      ...TASK_VARIABLES,
    });
    expect(rejectedKeys).toEqual([]);
  });

  it('never carries the daemon process env, even its secrets', () => {
    const planted = { DAEMON_SECRET: 'daemon-only', NATS_URL: 'nats://daemon-credentials@nats:4222', SWITCHYARD_DAEMON_TOKEN: 'daemon-token' };
    const previous = Object.fromEntries(Object.keys(planted).map((key) => [key, process.env[key]]));
    Object.assign(process.env, planted);
    try {
      const { environment } = buildAgentEnvironment({ base, agentEnvironment: {}, task });
      expect(Object.keys(environment).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TERM', 'TMPDIR', ...Object.keys(GIT_IDENTITY), ...Object.keys(TASK_VARIABLES)].sort());
      expect(JSON.stringify(environment)).not.toMatch(/daemon-only|daemon-credentials|daemon-token/);
    } finally {
      for (const [key, value] of Object.entries(previous)) {
        if (value === undefined) Reflect.deleteProperty(process.env, key);
        else process.env[key] = value;
      }
    }
  });

  it('rejects and reports blocked keys, keeping the safe value', () => {
    const { environment, rejectedKeys } = buildAgentEnvironment({
      base,
      agentEnvironment: {
        NATS_URL: 'nats://evil',
        DATABASE_URL: 'postgres://evil',
        SWITCHYARD_DAEMON_NATS_CREDENTIALS: 'x',
        SWITCHYARD_TOKEN: 'forged',
        SWITCHYARD_TASK_ID: 'forged',
        NODE_OPTIONS: '--require /tmp/x.js',
        LD_PRELOAD: '/tmp/x.so',
        DYLD_INSERT_LIBRARIES: '/tmp/x.dylib',
        PATH: '/tmp/evil',
        HOME: '/root',
        ld_library_path: '/tmp',
        KEEP_ME: 'yes',
      },
      task,
    });
    expect(rejectedKeys.map(({ key, reason, origin }) => `${origin}:${key}:${reason}`)).toEqual([
      'agent:NATS_URL:blocked',
      'agent:DATABASE_URL:blocked',
      'agent:SWITCHYARD_DAEMON_NATS_CREDENTIALS:blocked',
      'agent:SWITCHYARD_TOKEN:blocked',
      'agent:SWITCHYARD_TASK_ID:blocked',
      'agent:NODE_OPTIONS:blocked',
      'agent:LD_PRELOAD:blocked',
      'agent:DYLD_INSERT_LIBRARIES:blocked',
      'agent:PATH:blocked',
      'agent:HOME:blocked',
      'agent:ld_library_path:blocked',
    ]);
    expect(environment).toMatchObject({ ...TASK_VARIABLES, PATH: base.path, HOME: base.home, KEEP_ME: 'yes' });
    expect(Object.keys(environment).filter((key) => /^(NATS_|DATABASE_URL|NODE_OPTIONS|LD_|DYLD_|ld_)/.test(key))).toEqual([]);
  });

  it('rejects non-POSIX names and values with NUL', () => {
    const { environment, rejectedKeys } = buildAgentEnvironment({
      base,
      agentEnvironment: { '1ST': 'x', 'WITH-DASH': 'x', 'A=B': 'x', '': 'x', GOOD: 'a\0b' },
      task,
    });
    expect(rejectedKeys).toEqual([
      { key: '1ST', origin: 'agent', reason: 'invalid_name' },
      { key: 'WITH-DASH', origin: 'agent', reason: 'invalid_name' },
      { key: 'A=B', origin: 'agent', reason: 'invalid_name' },
      { key: '', origin: 'agent', reason: 'invalid_name' },
      { key: 'GOOD', origin: 'agent', reason: 'invalid_value' },
    ]);
    expect(environment['GOOD']).toBeUndefined();
  });

  it('lets trusted runtime variables through but never over the task variables', () => {
    const { environment, rejectedKeys } = buildAgentEnvironment({
      base,
      runtimeEnvironment: { CODEX_HOME: '/work/codex-home', SWITCHYARD_TASK_ID: 'forged' },
      agentEnvironment: { CODEX_HOME: '/tmp/agent-choice' },
      task,
    });
    expect(environment['CODEX_HOME']).toBe('/work/codex-home');
    expect(environment['SWITCHYARD_TASK_ID']).toBe(task.taskId);
    expect(rejectedKeys).toEqual([
      { key: 'SWITCHYARD_TASK_ID', origin: 'runtime', reason: 'blocked' },
      { key: 'CODEX_HOME', origin: 'agent', reason: 'blocked' },
    ]);
  });

  it('blocks case-insensitively', () => {
    expect(['Path', 'switchyard_attempt', 'Nats_Creds', 'dyld_x'].every(isBlockedAgentEnvironmentKey)).toBe(true);
    expect(isBlockedAgentEnvironmentKey('GITHUB_TOKEN')).toBe(false);
  });
});
