/** What both a `DataSource` and an `EntityManager` offer. */
export interface RawQueryRunner {
  query<Row = unknown>(sql: string, parameters?: unknown[]): Promise<Row>;
}

/**
 * The rows of an `update ... returning` / `delete ... returning`. TypeORM answers those two with
 * `[rows, rowCount]` instead of the rows, so the statement runs inside a CTE whose outer SELECT
 * yields plain rows.
 */
export function returningRows<Row>(runner: RawQueryRunner, sql: string, parameters: unknown[]): Promise<Row[]> {
  return runner.query<Row[]>(`with changed as (${sql}) select * from changed`, parameters);
}
