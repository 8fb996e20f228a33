/**
 * What a reader needs to run its SQL: a TypeORM DataSource, EntityManager or QueryRunner, or a
 * thin wrapper over a pg client. Readers take one, so a caller can read inside its transaction.
 */
export interface SqlRunner {
  query<Row = unknown>(sql: string, parameters?: unknown[]): Promise<Row>;
}
