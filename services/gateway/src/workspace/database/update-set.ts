/** One column a PATCH may change; `undefined` values are left out (absent from the request). */
export interface ColumnChange {
  readonly column: string;
  readonly value: unknown;
  /** Stored as jsonb: the value is serialized and cast. */
  readonly json?: boolean;
}

/**
 * The `set` list of an UPDATE from the fields a PATCH carried, with numbered parameters starting
 * at `firstParameter`; `updated_at = now()` is always included. Column names come from code, never
 * from the request.
 */
export function setClause(changes: readonly ColumnChange[], firstParameter: number): { sql: string; parameters: unknown[] } {
  const present = changes.filter((change) => change.value !== undefined);
  const assignments = present.map(
    (change, index) => `${change.column} = $${firstParameter + index}${change.json ? '::jsonb' : ''}`,
  );
  return {
    sql: [...assignments, 'updated_at = now()'].join(', '),
    parameters: present.map((change) => (change.json ? JSON.stringify(change.value) : change.value)),
  };
}
