import { newEnvironmentRow, type EnvironmentRow } from './agent-form.model';

/**
 * The agent's environment as key/value rows. Values are write-only: a stored one shows as hidden
 * and is kept unless typed over ("Replace value"); keys of stored rows are fixed.
 */
export function AgentEnvironment(props: { readonly rows: readonly EnvironmentRow[]; readonly readOnly: boolean; readonly onChange: (rows: readonly EnvironmentRow[]) => void }) {
  const update = (rowId: string, change: Partial<EnvironmentRow>) => props.onChange(props.rows.map((row) => (row.rowId === rowId ? { ...row, ...change } : row)));
  return (
    <fieldset className="agent-environment">
      <legend>Environment variables</legend>
      <p className="hint">Values are secret: the API never shows them again. Leave a stored value as it is to keep it.</p>
      {props.rows.length === 0 ? <p className="hint">None.</p> : null}
      <ul>
        {props.rows.map((row, index) => (
          <li key={row.rowId} className="agent-environment-row" data-testid="agent-env-row">
            <label>
              Name
              <input
                value={row.key}
                readOnly={row.stored}
                onChange={(event) => update(row.rowId, { key: event.target.value })}
                aria-label={`Variable ${index + 1} name`}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
            {row.stored && !row.changed ? (
              <>
                <span className="agent-environment-masked" aria-label={`${row.key} value, stored and hidden`}>
                  •••••••• (stored)
                </span>
                {props.readOnly ? null : (
                  <button type="button" onClick={() => update(row.rowId, { changed: true, value: '' })}>
                    Replace value
                  </button>
                )}
              </>
            ) : (
              <>
                <label>
                  Value
                  <input
                    type="password"
                    value={row.value}
                    onChange={(event) => update(row.rowId, { value: event.target.value })}
                    aria-label={`Variable ${index + 1} value`}
                    autoComplete="new-password"
                  />
                </label>
                {row.stored && !props.readOnly ? (
                  <button type="button" onClick={() => update(row.rowId, { changed: false, value: '' })}>
                    Keep stored value
                  </button>
                ) : null}
              </>
            )}
            {props.readOnly ? null : (
              <button type="button" onClick={() => props.onChange(props.rows.filter((other) => other.rowId !== row.rowId))} aria-label={`Remove variable ${row.key || index + 1}`}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {props.readOnly ? null : (
        <button type="button" onClick={() => props.onChange([...props.rows, newEnvironmentRow()])} data-testid="agent-env-add">
          Add variable
        </button>
      )}
    </fieldset>
  );
}
