import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { THINKING_LEVELS, agentKeys, listSkills } from '../api/agents.api';
import { listRuntimes, runtimeKeys, runtimeLabel } from '../api/runtimes.api';
import { AgentEnvironment } from './agent-environment.view';
import type { AgentDraft } from './agent-form.model';

/** The agent's settings as labelled controls: runtimes and skills offered from the API, the runtime's models as suggestions. */
export function AgentFields(props: { readonly draft: AgentDraft; readonly readOnly: boolean; readonly onChange: (fields: Partial<AgentDraft>) => void }) {
  const { draft, readOnly } = props;
  const change = props.onChange;
  const runtimes = useQuery({ queryKey: runtimeKeys.list('all'), queryFn: () => listRuntimes('all') });
  const skills = useQuery({ queryKey: agentKeys.skills, queryFn: listSkills });
  const modelListId = useId();
  const runtime = runtimes.data?.find((candidate) => candidate.runtimeId === draft.runtimeId);
  // Names the agent has but the store lacks stay choosable: saving must not drop them unasked.
  const skillNames = [...new Set([...(skills.data ?? []).map((skill) => skill.name), ...draft.skills])].sort();
  const known = draft.thinkingLevel === '' || (THINKING_LEVELS as readonly string[]).includes(draft.thinkingLevel);
  const thinkingLevels: readonly string[] = known ? THINKING_LEVELS : [...THINKING_LEVELS, draft.thinkingLevel];
  return (
    <>
      <fieldset disabled={readOnly} className="form-grid">
        <label>
          Name
          <input value={draft.name} maxLength={100} required onChange={(event) => change({ name: event.target.value })} data-testid="agent-name" />
        </label>
        <label>
          Runtime
          <select value={draft.runtimeId} required onChange={(event) => change({ runtimeId: event.target.value })} data-testid="agent-runtime">
            <option value="">Choose a runtime…</option>
            {(runtimes.data ?? []).map((candidate) => (
              <option key={candidate.runtimeId} value={candidate.runtimeId}>
                {runtimeLabel(candidate)} · {candidate.runtimeId}
              </option>
            ))}
            {draft.runtimeId !== '' && runtimes.data && !runtime ? <option value={draft.runtimeId}>{draft.runtimeId} (not registered now)</option> : null}
          </select>
        </label>
        <label>
          Model
          <input value={draft.model} maxLength={200} list={modelListId} onChange={(event) => change({ model: event.target.value })} placeholder="the CLI's default" data-testid="agent-model" />
          <datalist id={modelListId}>
            {(runtime?.models ?? []).map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        </label>
        <label>
          Thinking level
          <select value={draft.thinkingLevel} onChange={(event) => change({ thinkingLevel: event.target.value })} data-testid="agent-thinking-level">
            <option value="">The CLI's default</option>
            {thinkingLevels.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
        </label>
        <label>
          Max concurrent tasks
          <input type="number" min={1} max={100} step={1} value={draft.maxConcurrentTasks} onChange={(event) => change({ maxConcurrentTasks: event.target.value })} data-testid="agent-max-concurrent" />
        </label>
        <label>
          Skills
          <select
            multiple
            size={Math.min(6, Math.max(2, skillNames.length))}
            value={[...draft.skills]}
            onChange={(event) => change({ skills: Array.from(event.target.selectedOptions, (option) => option.value) })}
            data-testid="agent-skills"
          >
            {skillNames.map((name) => (
              <option key={name} value={name}>
                {name}
                {skills.data && !skills.data.some((skill) => skill.name === name) ? ' (no such skill now)' : ''}
              </option>
            ))}
          </select>
          <span className="hint">{skillNames.length === 0 ? 'No skills in this workspace yet.' : 'Ctrl/⌘ or Shift to choose several.'}</span>
        </label>
        <label className="form-wide">
          Instructions
          <textarea rows={8} value={draft.instructions} onChange={(event) => change({ instructions: event.target.value })} data-testid="agent-instructions" />
        </label>
        <label className="form-wide">
          MCP servers (JSON)
          <textarea rows={6} value={draft.mcpServersJson} spellCheck={false} className="monospace" onChange={(event) => change({ mcpServersJson: event.target.value })} data-testid="agent-mcp-servers" />
          <span className="hint">
            {'{ "<name>": { "command", "args", "env" } or { "url", "transport", "headers" } }'}. Secret values read <code>********</code>; left so, they keep what is stored.
          </span>
        </label>
        <label className="form-wide">
          Extra CLI arguments (one per line)
          <textarea rows={2} value={draft.extraArgsText} spellCheck={false} className="monospace" onChange={(event) => change({ extraArgsText: event.target.value })} />
        </label>
        <div className="form-wide">
          <AgentEnvironment rows={draft.environment} readOnly={readOnly} onChange={(environment) => change({ environment })} />
        </div>
      </fieldset>
      {runtimes.isError ? <p role="alert">Runtimes: {describeError(runtimes.error)}</p> : null}
      {skills.isError ? <p role="alert">Skills: {describeError(skills.error)}</p> : null}
    </>
  );
}
