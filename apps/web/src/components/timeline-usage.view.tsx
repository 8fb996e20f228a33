import { useTaskUsage } from '../api/tasks.api';
import type { ModelUsage } from '../timeline/timeline.model';

const numberFormat = new Intl.NumberFormat();

/** Totals per model over the attempts the gateway recorded. */
function recordedPerModel(rows: ReadonlyArray<{ model: string; inputTokens: number; outputTokens: number }>): ModelUsage[] {
  const byModel = new Map<string, ModelUsage>();
  for (const row of rows) {
    const seen = byModel.get(row.model);
    byModel.set(row.model, {
      model: row.model,
      inputTokens: (seen?.inputTokens ?? 0) + row.inputTokens,
      outputTokens: (seen?.outputTokens ?? 0) + row.outputTokens,
    });
  }
  return [...byModel.values()];
}

/**
 * Token use per model: the live totals while the stream holds the task's usage messages; once
 * they aged out of the stream (or never came live), the totals the gateway recorded.
 */
export function TimelineUsageView(props: { readonly taskId: string; readonly live: readonly ModelUsage[]; readonly finished: boolean }) {
  const recorded = useTaskUsage(props.taskId, props.live.length === 0 && props.finished);
  const rows = props.live.length > 0 ? props.live : recordedPerModel(recorded.data ?? []);
  if (rows.length === 0) return null;
  return (
    <table className="timeline-usage" data-testid={`task-usage-${props.taskId}`}>
      <caption>Token use per model</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Input tokens</th>
          <th scope="col">Output tokens</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.model}>
            <th scope="row">{row.model}</th>
            <td>{numberFormat.format(row.inputTokens)}</td>
            <td>{numberFormat.format(row.outputTokens)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
