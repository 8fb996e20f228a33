import { parseArgs } from 'node:util';
import type { TimelineEntry } from '@switchyard/contracts';
import { GatewayClient, GatewayRequestError } from './gateway.client';
import { FollowError, followTask } from './timeline.follower';
import { renderActivity, renderEntry, renderStatus } from './timeline.renderer';
import { resolveYardSettings, YardSettingsError } from './yard.settings';
import { ISSUE_COMMAND_USAGE, IssueCommandError, parseIssueCommand } from './issue-command.parser';
import { runIssueCommand } from './issue-command.runner';
import { DaemonChannelError, parseRepoCommand, REPO_COMMAND_USAGE, RepoCommandError, resolveDaemonChannel } from './repo-command.parser';
import { DaemonRequestClient, DaemonRequestError } from './repo-command.client';
import { runRepoCommand } from './repo-command.runner';

const USAGE = `yard — the Switchyard command line

  yard runtime list
  yard agent list
  yard agent create --name <name> --runtime <runtimeId> [--model <model>] [--instructions <text>] [--env KEY=VALUE ...]
  yard task create --agent <agentId> --prompt <text> [--follow] [--json]
  yard task follow <taskId> [--after <seq>] [--json]
  yard task messages <taskId> [--json]
  yard task cancel <taskId>
${ISSUE_COMMAND_USAGE}
${REPO_COMMAND_USAGE}

  --url <gateway url>   default: SWITCHYARD_URL, else SWITCHYARD_API_URL (an agent's), else the local stack's gateway (npm start)
  --token <token>       an API token, or an agent's task token; default: SWITCHYARD_TOKEN, else the local stack's token
  --json                timeline rows as JSON lines (one TimelineEntry each), nothing else on stdout
  Exit code: 0 done (a followed task completed), 1 failed, 2 usage error.`;

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  name: { type: 'string' },
  runtime: { type: 'string' },
  model: { type: 'string' },
  instructions: { type: 'string' },
  env: { type: 'string', multiple: true },
  agent: { type: 'string' },
  prompt: { type: 'string' },
  follow: { type: 'boolean' },
  json: { type: 'boolean' },
  after: { type: 'string' },
  issue: { type: 'string' },
  parent: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

function envPairs(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const separator = pair.indexOf('=');
      if (separator <= 0) throw new UsageError(`--env takes KEY=VALUE, got ${pair}`);
      return [pair.slice(0, separator), pair.slice(separator + 1)];
    }),
  );
}

async function run(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  // The daemon running this task answers these, not the gateway: no gateway settings needed.
  if (positionals[0] === 'repo') {
    const command = parseRepoCommand({ verb: positionals[1], words: positionals.slice(2) });
    const daemon = new DaemonRequestClient(resolveDaemonChannel({ env: process.env, token: values.token }));
    return runRepoCommand(command, daemon, { print: (line) => void process.stdout.write(`${line}\n`), note: (line) => void process.stderr.write(`${line}\n`), json: values.json === true });
  }
  const settings = resolveYardSettings({ flags: { url: values.url, token: values.token }, env: process.env, cwd: process.cwd() });
  const gateway = new GatewayClient(settings);
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  const json = values.json === true;
  const printEntry = (entry: TimelineEntry): void => print(json ? JSON.stringify(entry) : renderEntry(entry));
  const follow = async (taskId: string, afterSeq: number): Promise<number> => {
    const status = await followTask({
      url: settings.url,
      token: settings.token,
      taskId,
      afterSeq,
      handlers: {
        onEntry: printEntry,
        onActivity: (seq, message) => {
          const line = json ? undefined : renderActivity(seq, message);
          if (line) print(line);
        },
        onStatus: (change) => (json ? process.stderr.write(`${renderStatus(change)}\n`) : print(renderStatus(change))),
        onNotice: (text) => void process.stderr.write(`yard: ${text}\n`),
      },
    });
    return status === 'completed' ? 0 : 1;
  };

  const [noun, verb, target] = positionals;
  if (noun === 'issue') {
    const command = parseIssueCommand({ verb, words: positionals.slice(2), flags: values, env: process.env });
    return runIssueCommand(command, gateway, { print, json, readStdin });
  }
  switch (`${noun} ${verb}`) {
    case 'runtime list':
      for (const runtime of (await gateway.listRuntimes()).runtimes) print(`${runtime.runtimeId}\t${runtime.identity} ${runtime.version}\t${runtime.status}`);
      return 0;
    case 'agent list':
      for (const agent of (await gateway.listAgents()).agents) print(`${agent.id}\t${agent.name}\t${agent.runtimeId}`);
      return 0;
    case 'agent create': {
      const env = envPairs(values.env);
      const agent = await gateway.createAgent({
        name: required(values.name, 'name'),
        runtimeId: required(values.runtime, 'runtime'),
        ...(values.model ? { model: values.model } : {}),
        ...(values.instructions ? { instructions: values.instructions } : {}),
        ...(env ? { env } : {}),
      });
      print(agent.id);
      return 0;
    }
    case 'task create': {
      const task = await gateway.createTask({ agentId: required(values.agent, 'agent'), prompt: required(values.prompt, 'prompt') });
      if (json) process.stderr.write(`${task.taskId}\n`);
      else print(task.taskId);
      return values.follow ? follow(task.taskId, -1) : 0;
    }
    case 'task follow':
      return follow(required(target, 'taskId (positional)'), values.after === undefined ? -1 : Number(values.after));
    case 'task messages':
      for (const entry of await gateway.timeline(required(target, 'taskId (positional)'))) printEntry(entry);
      return 0;
    case 'task cancel': {
      const task = await gateway.cancelTask(required(target, 'taskId (positional)'));
      print(`${task.taskId}\t${task.status}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof IssueCommandError || error instanceof RepoCommandError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`yard: ${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (error instanceof GatewayRequestError) process.stderr.write(`yard: ${error.code}: ${error.message} (HTTP ${error.status})\n`);
    else if (error instanceof DaemonRequestError) process.stderr.write(`yard: ${error.code}: ${error.message}${error.status === undefined ? '' : ` (daemon, HTTP ${error.status})`}\n`);
    else if (error instanceof YardSettingsError || error instanceof FollowError || error instanceof DaemonChannelError) process.stderr.write(`yard: ${error.message}\n`);
    else process.stderr.write(`yard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
