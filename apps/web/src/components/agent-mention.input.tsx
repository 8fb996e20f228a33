import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { AgentSummary } from '../api/issues.api';

/** The `@word` the caret is in: where it starts and ends, and what is typed after the `@`. */
interface MentionQuery {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const MAXIMUM_OPTIONS = 8;

/** An `@` at the start or after a space or bracket begins a mention; `a@b` (an address) does not, as on the server. */
export function mentionQueryAt(value: string, caret: number): MentionQuery | undefined {
  const match = /(^|[\s(])@([^\s@]*)$/.exec(value.slice(0, caret));
  if (!match) return undefined;
  const text = match[2] ?? '';
  return { start: caret - text.length - 1, end: caret, text };
}

/** Names starting with what was typed first, then names containing it. */
export function matchingAgents(agents: readonly AgentSummary[], typed: string): AgentSummary[] {
  const wanted = typed.toLowerCase();
  const starting = agents.filter((agent) => agent.name.toLowerCase().startsWith(wanted));
  const containing = agents.filter((agent) => !agent.name.toLowerCase().startsWith(wanted) && agent.name.toLowerCase().includes(wanted));
  return [...starting, ...containing].slice(0, MAXIMUM_OPTIONS);
}

export interface AgentMentionInputProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly agents: readonly AgentSummary[];
  // Read-only, not disabled, while sending: the textarea keeps its focus.
  readonly readOnly?: boolean;
  readonly placeholder?: string;
  readonly testId?: string;
  /** Ctrl+Enter (⌘+Enter): send without reaching for the button. */
  readonly onSubmitShortcut?: () => void;
}

/** The mention the caret is in, the agents it matches, and how a key or a click picks one. */
function useMention(props: Pick<AgentMentionInputProps, 'value' | 'onChange' | 'agents'>) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<MentionQuery>();
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number>();
  const caretAfterInsert = useRef<number | undefined>(undefined);
  const options = useMemo(() => (query ? matchingAgents(props.agents, query.text) : []), [props.agents, query]);
  const open = query !== undefined && options.length > 0 && dismissedAt !== query.start;
  const activeIndex = Math.min(active, options.length - 1);

  useLayoutEffect(() => {
    // After an insert the caret goes right after the inserted name, not to the end of the text.
    const caret = caretAfterInsert.current;
    if (caret === undefined || !textarea.current) return;
    caretAfterInsert.current = undefined;
    textarea.current.setSelectionRange(caret, caret);
  }, [props.value]);

  const follow = (value: string, caret: number) => {
    const next = mentionQueryAt(value, caret);
    if (next?.start !== query?.start || next?.text !== query?.text) setActive(0);
    setQuery(next);
  };

  const choose = (agent: AgentSummary) => {
    if (!query) return;
    const before = props.value.slice(0, query.start);
    const after = props.value.slice(query.end);
    const inserted = `@${agent.name}${after.startsWith(' ') ? '' : ' '}`;
    caretAfterInsert.current = before.length + inserted.length + (after.startsWith(' ') ? 1 : 0);
    setQuery(undefined);
    props.onChange(`${before}${inserted}${after}`);
  };

  /** Arrows, Enter, Tab and Escape while the list is open; true when the key was the list's. */
  const listKey = (key: string): boolean => {
    if (!open) return false;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      const step = key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + options.length) % options.length);
      return true;
    }
    const agent = options[activeIndex];
    if ((key === 'Enter' || key === 'Tab') && agent) {
      choose(agent);
      return true;
    }
    if (key === 'Escape') {
      setDismissedAt(query.start);
      return true;
    }
    return false;
  };

  return { textarea, open, options, activeIndex, follow, choose, listKey, close: () => setQuery(undefined) };
}

function MentionOptions(props: { readonly listId: string; readonly options: readonly AgentSummary[]; readonly activeIndex: number; readonly onChoose: (agent: AgentSummary) => void }) {
  return (
    <ul id={props.listId} role="listbox" aria-label="Agents to mention" className="agent-mention-options">
      {props.options.map((agent, index) => (
        <li
          key={agent.id}
          id={`${props.listId}-option-${index}`}
          role="option"
          aria-selected={index === props.activeIndex}
          className={index === props.activeIndex ? 'active' : undefined}
          // Choosing with the mouse must not blur the textarea first (which closes the list).
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onChoose(agent)}
        >
          @{agent.name}
          {agent.model ? <span className="hint"> {agent.model}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * A textarea where typing `@` offers the workspace's agents by name: arrows choose, Enter or Tab
 * inserts `@name`, Escape closes the list. The server reads mentions from the body's `@name`s.
 */
export function AgentMentionInput(props: AgentMentionInputProps) {
  const listId = useId();
  const inputId = useId();
  const mention = useMention(props);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      props.onSubmitShortcut?.();
    } else if (mention.listKey(event.key)) {
      event.preventDefault();
    }
  };
  const count = mention.options.length;
  return (
    <div className="agent-mention">
      <label htmlFor={inputId}>{props.label}</label>
      <textarea
        id={inputId}
        ref={mention.textarea}
        data-testid={props.testId}
        value={props.value}
        readOnly={props.readOnly}
        placeholder={props.placeholder}
        rows={4}
        aria-autocomplete="list"
        aria-controls={mention.open ? listId : undefined}
        aria-activedescendant={mention.open ? `${listId}-option-${mention.activeIndex}` : undefined}
        aria-describedby={`${inputId}-hint`}
        onChange={(event) => {
          props.onChange(event.target.value);
          mention.follow(event.target.value, event.target.selectionStart);
        }}
        onSelect={(event) => mention.follow(event.currentTarget.value, event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={mention.close}
      />
      <span id={`${inputId}-hint`} className="hint">
        Type @ to mention an agent: it gets a task. Ctrl+Enter sends.
      </span>
      {mention.open ? <MentionOptions listId={listId} options={mention.options} activeIndex={mention.activeIndex} onChoose={mention.choose} /> : null}
      <span className="visually-hidden" role="status" aria-live="polite">
        {mention.open ? `${count} agent${count === 1 ? '' : 's'} match; use the arrow keys and Enter to choose.` : ''}
      </span>
    </div>
  );
}
