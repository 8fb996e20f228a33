/**
 * Five-field cron (minute hour day-of-month month day-of-week), evaluated in UTC. Each field is
 * `*`, a value, a range `a-b`, a step `*\/n`, `a-b/n` or `a/n` (from a to the field's end), or a
 * comma list of those. Day of week is 0-7 (0 and 7 are Sunday). Names (`MON`, `JAN`) and the
 * non-standard `L`, `W`, `#`, `?` are not accepted. As in Vixie cron, when both day fields are
 * restricted (neither starts with `*`) a day matches if either does; otherwise both must.
 */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  readonly daysOfMonthRestricted: boolean;
  readonly daysOfWeekRestricted: boolean;
}

export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function parseNumber(text: string, field: FieldSpec): number {
  if (!/^\d{1,2}$/.test(text)) throw new CronSyntaxError(`${field.name}: "${text}" is not a number`);
  const value = Number(text);
  if (value < field.min || value > field.max) throw new CronSyntaxError(`${field.name}: ${value} is outside ${field.min}-${field.max}`);
  return value;
}

function parseField(text: string, field: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [range = '', stepText, ...extra] = part.split('/');
    if (extra.length > 0) throw new CronSyntaxError(`${field.name}: "${part}" has more than one /`);
    const step = stepText === undefined ? 1 : parseNumber(stepText, { ...field, min: 1, max: field.max - field.min + 1 });
    let start: number;
    let end: number;
    if (range === '*') {
      [start, end] = [field.min, field.max];
    } else if (range.includes('-')) {
      const [low = '', high = '', ...more] = range.split('-');
      if (more.length > 0) throw new CronSyntaxError(`${field.name}: "${range}" is not a range`);
      [start, end] = [parseNumber(low, field), parseNumber(high, field)];
      if (start > end) throw new CronSyntaxError(`${field.name}: range ${range} runs backwards`);
    } else {
      start = parseNumber(range, field);
      // `a/n` runs from a to the end of the field; a bare `a` is that value alone.
      end = stepText === undefined ? start : field.max;
    }
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return values;
}

/** Parses a 5-field expression; throws `CronSyntaxError` naming the field at fault. */
export function parseCronExpression(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(`expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = parts.map((part, index) => parseField(part, FIELDS[index]!)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (daysOfWeek.delete(7)) daysOfWeek.add(0);
  return {
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    daysOfMonthRestricted: !parts[2]!.startsWith('*'),
    daysOfWeekRestricted: !parts[4]!.startsWith('*'),
  };
}

/** The problem with an expression, or undefined when it parses. */
export function cronProblem(expression: string): string | undefined {
  try {
    parseCronExpression(expression);
    return undefined;
  } catch (error) {
    if (error instanceof CronSyntaxError) return error.message;
    throw error;
  }
}

function dayMatches(schedule: CronSchedule, at: Date): boolean {
  if (!schedule.months.has(at.getUTCMonth() + 1)) return false;
  const byMonthDay = schedule.daysOfMonth.has(at.getUTCDate());
  const byWeekDay = schedule.daysOfWeek.has(at.getUTCDay());
  if (schedule.daysOfMonthRestricted && schedule.daysOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}

/** Whether the minute containing `at` (UTC) is one the schedule names. */
export function cronMatches(schedule: CronSchedule, at: Date): boolean {
  return dayMatches(schedule, at) && schedule.hours.has(at.getUTCHours()) && schedule.minutes.has(at.getUTCMinutes());
}

export function floorToMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * The minutes the schedule names after `from` (exclusive) up to `to` (inclusive), oldest first,
 * both taken to their whole minute. Whole days and hours that cannot match are skipped, so a long
 * window costs about one step per day plus one per matching hour's minutes.
 */
export function dueMinutes(schedule: CronSchedule, from: Date, to: Date): Date[] {
  const due: Date[] = [];
  const end = floorToMinute(to).getTime();
  let at = floorToMinute(from).getTime() + MINUTE_MS;
  while (at <= end) {
    const date = new Date(at);
    if (!dayMatches(schedule, date)) {
      at = Math.floor(at / DAY_MS) * DAY_MS + DAY_MS;
    } else if (!schedule.hours.has(date.getUTCHours())) {
      at = Math.floor(at / HOUR_MS) * HOUR_MS + HOUR_MS;
    } else {
      if (schedule.minutes.has(date.getUTCMinutes())) due.push(date);
      at += MINUTE_MS;
    }
  }
  return due;
}
