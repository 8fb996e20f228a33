import { execFileSync } from 'node:child_process';
import { startMockModelServer, type MockModelServer } from '@switchyard/testing';
import { realCli } from '../conformance/real-cli.spec-helper';
import { RECORDED_FAILURES, recordFailure, writeFailureFixture, type RecordedFailureName, type RecordingRuntime } from './failure-recording.spec-helper';

/**
 * Each real CLI against each scripted provider failure, driven as the daemon drives it (the runtime
 * wing): the run fails with the provider's reason. `RECORD_FAILURES=1` also rewrites the fixtures
 * the per-family classifier tables replay (`<family>/__fixtures__/failures/`).
 */
const RECORD = process.env['RECORD_FAILURES'] === '1';
const RUN_SLOW = process.env['FAILURE_SLOW'] === '1' || RECORD;
const RUN_TIMEOUT_MS = 180_000;

const versionOf = (cli: Parameters<typeof realCli>[0]): string => /\d+\.\d+\.\d+/.exec(execFileSync(realCli(cli), ['--version'], { encoding: 'utf8', timeout: 60_000 }))?.[0] ?? 'unknown';

/**
 * Where a CLI cannot show a reason: the scenario is not run (`reason` says why) or is run and
 * expected to keep the adapter's own code. Documented per family in protocol-families.md.
 */
interface KnownGaps {
  /** Not run: the CLI retries it on its own for longer than a test may wait. */
  readonly notRun?: Partial<Record<RecordedFailureName, string>>;
  /**
   * Run only with `FAILURE_SLOW=1`: the CLI's own retries make the live run last over a minute. Its
   * recording is still replayed by the family's classifier table in every run.
   */
  readonly slow?: Partial<Record<RecordedFailureName, string>>;
  /** Run, and the failure keeps this code: the CLI prints nothing a rule could read. */
  readonly unclassified?: Partial<Record<RecordedFailureName, string>>;
}

const RUNTIMES: ReadonlyArray<{ readonly cli: Parameters<typeof realCli>[0]; readonly runtime: () => RecordingRuntime; readonly gaps?: KnownGaps }> = [
  {
    cli: 'claude',
    runtime: () => ({ target: { protocolFamily: 'claude-stream-json', identity: 'claude-code', version: versionOf('claude') }, executablePath: realCli('claude'), model: null, agentEnv: (server) => ({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' }) }),
  },
  {
    cli: 'codex',
    runtime: () => ({ target: { protocolFamily: 'codex-app-server', identity: 'codex', version: versionOf('codex') }, executablePath: realCli('codex'), model: 'mock-model', agentEnv: (server) => ({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) }),
  },
  {
    cli: 'gemini',
    runtime: () => ({ target: { protocolFamily: 'acp', identity: 'gemini-cli', version: versionOf('gemini') }, executablePath: realCli('gemini'), model: null, agentEnv: (server) => ({ GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'mock-not-a-secret' }) }),
  },
  {
    cli: 'qwen',
    runtime: () => ({ target: { protocolFamily: 'claude-stream-json', identity: 'qwen-code', version: versionOf('qwen') }, executablePath: realCli('qwen'), model: 'mock-model', agentEnv: (server) => ({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) }),
    // Recorded: 7 calls over 95 s, still retrying when our idle watchdog stopped it.
    gaps: {
      notRun: { rate_limited: 'Qwen Code retries a 429 on its own for minutes' },
      // Recorded: fails after about 80 s of its own retries.
      slow: { provider_error: 'Qwen Code retries a 5xx for about 80 s before it fails' },
    },
  },
  {
    cli: 'opencode',
    runtime: () => ({ target: { protocolFamily: 'opencode-ndjson', identity: 'opencode', version: versionOf('opencode') }, executablePath: realCli('opencode'), model: 'mock-model', agentEnv: (server) => ({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) }),
    gaps: {
      // Recorded: 8 calls over 95 s, still retrying when our idle watchdog stopped it; no setting bounds it.
      notRun: { provider_error: 'OpenCode retries a 5xx for minutes' },
      // Recorded: fails after about 70 s of its own retries.
      slow: { provider_network: 'OpenCode retries a reset connection for about 70 s before it fails' },
      // It prints the provider's message without the status (the status is only in its raw event).
      unclassified: { invalid_request: 'cli_reported_failure' },
    },
  },
  {
    cli: 'pi',
    runtime: () => ({ target: { protocolFamily: 'pi-json', identity: 'pi', version: versionOf('pi') }, executablePath: realCli('pi'), model: 'mock-model', agentEnv: (server) => ({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) }),
  },
];

const ONLY = (process.env['FAILURE_CLIS'] ?? '').split(',').filter((name) => name !== '');
const ONLY_SCENARIOS = (process.env['FAILURE_SCENARIOS'] ?? '').split(',').filter((name) => name !== '');
const SCENARIOS = (Object.keys(RECORDED_FAILURES) as RecordedFailureName[]).filter((name) => ONLY_SCENARIOS.length === 0 || ONLY_SCENARIOS.includes(name));

describe.each(RUNTIMES.filter(({ cli }) => ONLY.length === 0 || ONLY.includes(cli)))('provider failures on the real $cli', ({ runtime: runtimeOf, gaps }) => {
  let server: MockModelServer;
  let runtime: RecordingRuntime;
  beforeAll(async () => {
    server = await startMockModelServer({});
    runtime = runtimeOf();
  }, 60_000);
  afterAll(() => server?.stop());

  it.each(SCENARIOS.filter((scenario) => gaps?.notRun?.[scenario] === undefined && (RUN_SLOW || gaps?.slow?.[scenario] === undefined)))(
    'a provider %s fails the run with that reason',
    async (scenario) => {
      const { recording, result } = await recordFailure({ runtime, server, scenario });
      if (RECORD) writeFailureFixture(runtime.target.protocolFamily, recording);
      expect({ status: result.status, code: result.error?.code }).toEqual({ status: 'failed', code: gaps?.unclassified?.[scenario] ?? scenario });
    },
    RUN_TIMEOUT_MS,
  );
});
