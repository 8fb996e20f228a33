import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** The Claude stream-json family: Claude Code and the CLIs that print its stream. */
export const CLAUDE_STREAM_JSON_FAMILY = defineProtocolFamily({
  family: 'claude-stream-json',
  description: {
    displayName: 'Claude stream-json',
    adapter: 'available',
    launch:
      'Claude Code `-p --input-format stream-json --output-format stream-json --verbose --permission-mode bypassPermissions --permission-prompt-tool stdio`; CodeBuddy the same without the prompt tool, plus `--disallowedTools` for its interactive tools; Qwen Code `--auth-type openai --input-format stream-json --output-format stream-json --yolo`; Cursor `-p --output-format stream-json --yolo --workspace <cwd>`',
    promptDelivery: 'One stream-json `user` line on stdin, closed after the result (Claude Code keeps it open until then for mid-run messages and the in-band interrupt); Cursor: plain text on stdin, closed at once',
    resume: '`--resume <id>`; an error result, or Qwen Code’s stderr `No saved session found`, is a rejected resume; Cursor opens a new chat under an unknown id, so its refusal cannot be seen',
    cancel: `In-band \`interrupt\` control request for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Per model, from the final `result` event (`modelUsage` or `usage`), cache reads and writes included; Qwen Code: summed over its `assistant` events, since its result totals the whole session',
    testedWith: '**real CLI**: Claude Code 2.1.197, Qwen Code 0.15.10; frames: CodeBuddy, Cursor Agent',
  },
  defaults: { contextFileName: 'CLAUDE.md', skillsDirectory: '.claude/skills', mcpDelivery: 'claude-config-file', inlineRuntimeBrief: false },
  identities: [
    {
      identity: 'claude-code',
      displayName: 'Claude Code',
      commandName: 'claude',
      provider: 'anthropic',
      probeEnv: { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
      // Checked on 2.1.x: `/tmp/probe.cwd_x-8dIpKx/a.b_c d~e` is stored under `-tmp-probe-cwd-x-8dIpKx-a-b-c-d-e`;
      // folders over 200 characters get a hash suffix.
      sessionStore: { rootEnv: ['CLAUDE_CONFIG_DIR'], homeFolder: '.claude', sessionFile: 'projects/{project}/{sessionId}.jsonl', projectFolderMaxLength: 200 },
      verification: 'real-cli',
    },
    {
      identity: 'qwen-code',
      displayName: 'Qwen Code',
      commandName: 'qwen',
      provider: 'qwen',
      probeEnv: { QWEN_CODE_NO_RELAUNCH: 'true' },
      contextFileName: 'QWEN.md',
      skillsDirectory: '.qwen/skills',
      mcpDelivery: 'qwen-config-file',
      // Checked on 0.15.x: the runtime dir is QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen; the
      // project folder is the cwd with the same substitution as Claude's, not shortened.
      sessionStore: { rootEnv: ['QWEN_RUNTIME_DIR', 'QWEN_HOME'], homeFolder: '.qwen', sessionFile: 'projects/{project}/chats/{sessionId}.jsonl', projectFolderMaxLength: null },
      verification: 'real-cli',
    },
    {
      identity: 'codebuddy',
      displayName: 'CodeBuddy',
      commandName: 'codebuddy',
      provider: 'tencent',
      contextFileName: 'CODEBUDDY.md',
      skillsDirectory: '.codebuddy/skills',
      // Not installable here, so its MCP flags are unproven: the timeline says the servers were not given.
      mcpDelivery: 'none',
      verification: 'recorded-frames',
    },
    {
      identity: 'cursor-agent',
      displayName: 'Cursor Agent',
      commandName: 'cursor-agent',
      provider: 'cursor',
      contextFileName: 'AGENTS.md',
      skillsDirectory: '.cursor/skills',
      mcpDelivery: 'none',
      verification: 'recorded-frames',
    },
  ],
});
