/** Postgres foreign key violation (SQLSTATE 23503), optionally of one constraint: a row still referenced, or a reference to none. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } } | null)?.driverError ?? (error as { code?: string; constraint?: string } | null);
  if (driverError?.code !== '23503') return false;
  return constraint === undefined || driverError.constraint === constraint;
}
