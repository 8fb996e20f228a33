import { Cron } from 'croner';

/**
 * A five-field cron schedule (minute hour day-of-month month day-of-week), evaluated in UTC, parsed
 * and stepped by croner. Besides numbers, ranges, steps and lists croner reads month and weekday
 * names (`JAN`, `MON`) and `L`, `W`, `#`; day of week 7 is Sunday, as 0 is. When both day fields
 * are restricted a day matches if either does (Vixie cron's rule, croner's default).
 */
export type CronSchedule = Cron;

export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
}

const MINUTE_MS = 60_000;

/** Parses `expression` or throws CronSyntaxError with croner's reason. Never schedules anything. */
export function parseCronExpression(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) throw new CronSyntaxError(`expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`);
  try {
    // No callback: croner only computes. `sloppyRanges` keeps `a/n` (from a to the field's end).
    // Vixie cron ANDs the day fields when either starts with `*` (`*/2` included), else ORs them.
    const domAndDow = fields[2]!.startsWith('*') || fields[4]!.startsWith('*');
    return new Cron(fields.join(' '), { timezone: 'UTC', mode: '5-part', sloppyRanges: true, domAndDow });
  } catch (error) {
    throw new CronSyntaxError(readableProblem(error instanceof Error ? error.message : String(error)));
  }
}

/** croner counts days and months from 0 inside; its message then names a value one below what was written. */
function readableProblem(message: string): string {
  return message
    .replace(/^CronPattern: /, '')
    .replace(/Invalid value for (day|month): (-?\d+)/, (_match, field: string, value: string) => `Invalid value for ${field === 'day' ? 'day of month' : 'month'}: ${Number(value) + 1}`);
}

/** Why `expression` is not a schedule, or undefined when it is one. */
export function cronProblem(expression: string): string | undefined {
  try {
    parseCronExpression(expression);
    return undefined;
  } catch (error) {
    if (error instanceof CronSyntaxError) return error.message;
    throw error;
  }
}

export function floorToMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/** The minutes the schedule names after `from` (exclusive) up to `to` (inclusive), oldest first, both taken to their whole minute. */
export function dueMinutes(schedule: CronSchedule, from: Date, to: Date): Date[] {
  const due: Date[] = [];
  const end = floorToMinute(to).getTime();
  // croner's next run is strictly after the moment given: the last second of `from`'s minute.
  for (let next = schedule.nextRun(new Date(floorToMinute(from).getTime() + MINUTE_MS - 1)); next && next.getTime() <= end; next = schedule.nextRun(next)) {
    due.push(next);
  }
  return due;
}
