import { runtimeBannerLines } from './runtime-banner';

describe('runtime banner', () => {
  it('lists each registered runtime with its version and executable, then what was not found and why', () => {
    const lines = runtimeBannerLines(
      {
        runtimes: [{ identity: 'claude-code', version: '2.1.197', executablePath: '/repo/tests/agent-clis/node_modules/.bin/claude' }],
        notDetected: [
          { identity: 'cursor-agent', reason: 'not_on_path', detail: 'cursor-agent is not on PATH' },
          { identity: 'kimi', reason: 'not_on_path', detail: 'kimi is not on PATH' },
          { identity: 'codex', reason: 'version_probe_timed_out', detail: 'no answer within 10000 ms' },
        ],
      },
      'set DAEMON_PATH',
    );
    expect(lines).toEqual([
      'runtimes        1 registered:',
      '                  claude-code    2.1.197    /repo/tests/agent-clis/node_modules/.bin/claude',
      '                not on PATH (2): cursor-agent, kimi',
      '                not usable: codex (version_probe_timed_out: no answer within 10000 ms)',
    ]);
  });

  it('says plainly when nothing was registered, and how to add a CLI', () => {
    expect(runtimeBannerLines({ runtimes: [], notDetected: [] }, 'set DAEMON_PATH')[0]).toBe(
      "runtimes        none registered: no known agent CLI on the daemon's PATH. set DAEMON_PATH",
    );
  });
});
