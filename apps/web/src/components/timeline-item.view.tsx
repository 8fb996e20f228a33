import type { TimelineItem } from '../timeline/timeline.model';
import { MarkdownView } from './markdown.view';

/** The first seq an item holds: what a browser test and a reconnect reason about. */
export function firstSeqOf(item: TimelineItem): number {
  return 'seqs' in item ? (item.seqs[0] ?? -1) : item.seq;
}

function prettyJson(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    // A cycle, or a value JSON cannot hold: the input came from the agent, show that it is there.
    return '(input not shown: not serialisable)';
  }
}

function ToolItem(props: { readonly item: Extract<TimelineItem, { kind: 'tool' }> }) {
  const { item } = props;
  const result = item.result;
  const failed = result?.status === 'error';
  const state = result === undefined ? 'running…' : failed ? 'error' : 'done';
  return (
    <details className={failed ? 'timeline-tool-body timeline-tool-failed' : 'timeline-tool-body'}>
      <summary>
        <span className="timeline-tool-name">{item.tool}</span> <span className="timeline-tool-state">{state}</span>
        {result?.truncated ? <span className="timeline-badge">output truncated</span> : null}
      </summary>
      {item.input === null && result ? (
        <p className="hint">Result without its call (the call came before what this view holds).</p>
      ) : (
        <>
          <h4>Input</h4>
          <pre className="timeline-code">{prettyJson(item.input)}</pre>
        </>
      )}
      {result ? (
        <>
          <h4>Output{failed ? ' (error)' : ''}</h4>
          <pre className="timeline-code">{result.output === '' ? '(empty)' : result.output}</pre>
          {result.truncated ? <p className="timeline-truncated">Output truncated: this is a preview of a longer result.</p> : null}
        </>
      ) : null}
    </details>
  );
}

function ItemBody(props: { readonly item: TimelineItem }) {
  const { item } = props;
  switch (item.kind) {
    case 'text':
      return <MarkdownView source={item.content} className="timeline-text-body" />;
    case 'thinking':
      return (
        <details className="timeline-thinking-body">
          <summary>Thinking</summary>
          <p className="timeline-pre">{item.content}</p>
        </details>
      );
    case 'tool':
      return <ToolItem item={item} />;
    case 'error':
      return (
        <p>
          <strong>Error{item.code ? ` ${item.code}` : ''}:</strong> <span className="timeline-pre">{item.content}</span>
        </p>
      );
    case 'notice':
      return (
        <p>
          <span className="timeline-badge">{item.code ?? 'notice'}</span> {item.content}
        </p>
      );
    case 'status':
      return <p>{item.text}</p>;
  }
}

/** One item of a task's timeline, with the hooks a browser test reads (`data-seq`, `data-kind`). */
export function TimelineItemView(props: { readonly item: TimelineItem }) {
  return (
    <li className={`timeline-item timeline-${props.item.kind}`} data-testid="timeline-item" data-seq={firstSeqOf(props.item)} data-kind={props.item.kind}>
      <ItemBody item={props.item} />
    </li>
  );
}
