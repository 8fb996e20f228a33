import { cronProblem, dueMinutes, floorToMinute, parseCronExpression, type CronSchedule } from './cron-expression';

/** Whether the schedule fires in the minute containing `at`, as the scheduler sees it. */
const cronMatches = (schedule: CronSchedule, at: Date): boolean => dueMinutes(schedule, new Date(floorToMinute(at).getTime() - 60_000), at).length === 1;

const utc = (text: string): Date => new Date(`${text}Z`);
const isoList = (dates: readonly Date[]): string[] => dates.map((date) => date.toISOString().slice(0, 16));

describe('parseCronExpression', () => {
  const firesIn = (expression: string, from: string, to: string): string[] => isoList(dueMinutes(parseCronExpression(expression), utc(from), utc(to)));

  it('reads *, values, lists, ranges and steps in every field', () => {
    // Minutes 0/15/30/45 of hours 9, 13, 17 on the 1st and 15th of Jan-Mar, or on weekdays.
    const schedule = parseCronExpression('*/15 9-17/4 1,15 1-3 1-5');
    expect(firesIn('*/15 9-17/4 1,15 1-3 1-5', '2030-01-01T08:59:00', '2030-01-01T13:15:00')).toEqual([
      '2030-01-01T09:00', '2030-01-01T09:15', '2030-01-01T09:30', '2030-01-01T09:45', '2030-01-01T13:00', '2030-01-01T13:15',
    ]);
    expect(cronMatches(schedule, utc('2030-04-01T09:00:00'))).toBe(false); // April
    expect(cronMatches(schedule, utc('2030-01-05T09:00:00'))).toBe(false); // a Saturday the 5th
  });

  it('reads `a/n` as a to the end of the field, mixes lists of ranges, and maps day-of-week 7 to Sunday', () => {
    expect(firesIn('  5/20 0,12-13 * */6 5-7 ', '2030-01-04T11:59:00', '2030-01-04T13:59:00')).toEqual([
      '2030-01-04T12:05', '2030-01-04T12:25', '2030-01-04T12:45', '2030-01-04T13:05', '2030-01-04T13:25', '2030-01-04T13:45',
    ]); // a Friday in January
    expect(cronMatches(parseCronExpression('0 0 * * 7'), utc('2030-01-06T00:00:00'))).toBe(true); // a Sunday
    expect(cronMatches(parseCronExpression('0 0 * */6 *'), utc('2030-07-01T00:00:00'))).toBe(true);
    expect(cronMatches(parseCronExpression('0 0 * */6 *'), utc('2030-06-01T00:00:00'))).toBe(false);
  });

  it('reads month and weekday names', () => {
    expect(cronMatches(parseCronExpression('0 9 * JAN MON'), utc('2030-01-07T09:00:00'))).toBe(true);
    expect(cronMatches(parseCronExpression('0 9 * JAN MON'), utc('2030-01-08T09:00:00'))).toBe(false);
  });

  it('reads L (last day of the month) and # (nth weekday of the month)', () => {
    expect(firesIn('0 0 L * *', '2030-02-01T00:00:00', '2030-03-31T23:59:00')).toEqual(['2030-02-28T00:00', '2030-03-31T00:00']);
    expect(firesIn('0 0 * * 1#2', '2030-01-01T00:00:00', '2030-02-28T23:59:00')).toEqual(['2030-01-14T00:00', '2030-02-11T00:00']);
  });

  it.each([
    ['* * * *', 'expected 5 fields'],
    ['* * * * * *', 'expected 5 fields'],
    ['60 * * * *', 'minute: 60'],
    ['* 24 * * *', 'hour: 24'],
    ['* * 0 * *', 'day of month: 0'],
    ['* * * 13 *', 'month: 13'],
    ['* * * * 8', 'dayOfWeek: 8'],
    ['5-1 * * * *', 'larger than to value'],
    ['*/0 * * * *', 'illegal stepping'],
    ['1-2-3 * * * *', 'illegal range'],
    ['*/2/3 * * * *', 'illegal stepping'],
    ['MON * * * *', 'illegal characters'],
    ['1,,2 * * * *', 'is empty'],
    ['-1 * * * *', 'illegal lower range'],
    ['L * * * *', 'illegal characters'],
  ])('refuses %p (%s)', (expression, problem) => {
    expect(cronProblem(expression)).toContain(problem);
  });

  it('accepts the usual shapes', () => {
    for (const expression of ['* * * * *', '0 9 * * 1-5', '30 2 1 * *', '0 0 1 1 *', '0 */6 * * *', '15,45 8-18 * * 0,6', '0 0 * * 7']) {
      expect({ expression, problem: cronProblem(expression) }).toEqual({ expression, problem: undefined });
    }
  });
});

describe('cronMatches (UTC)', () => {
  it('matches minute, hour, month and weekday', () => {
    const weekdayMornings = parseCronExpression('0 9 * * 1-5');
    expect(cronMatches(weekdayMornings, utc('2030-01-07T09:00:59'))).toBe(true); // a Monday
    expect(cronMatches(weekdayMornings, utc('2030-01-07T09:01:00'))).toBe(false);
    expect(cronMatches(weekdayMornings, utc('2030-01-06T09:00:00'))).toBe(false); // a Sunday
    expect(cronMatches(parseCronExpression('0 0 * 2 *'), utc('2030-01-01T00:00:00'))).toBe(false);
  });

  it('a day matches either restricted day field, but both when one is *', () => {
    const either = parseCronExpression('0 0 13 * 5'); // the 13th, or any Friday
    expect(cronMatches(either, utc('2030-01-13T00:00:00'))).toBe(true); // a Sunday the 13th
    expect(cronMatches(either, utc('2030-01-04T00:00:00'))).toBe(true); // a Friday the 4th
    expect(cronMatches(either, utc('2030-01-05T00:00:00'))).toBe(false);
    const stepped = parseCronExpression('0 0 */2 * 5'); // starts with *: odd days that are Fridays
    expect(cronMatches(stepped, utc('2030-01-11T00:00:00'))).toBe(true);
    expect(cronMatches(stepped, utc('2030-01-04T00:00:00'))).toBe(false);
    expect(cronMatches(stepped, utc('2030-01-13T00:00:00'))).toBe(false);
    const sunday = parseCronExpression('0 0 * * 7');
    expect(cronMatches(sunday, utc('2030-01-06T00:00:00'))).toBe(true);
  });
});

describe('dueMinutes', () => {
  it('lists the named minutes after `from` (exclusive) up to `to` (inclusive), oldest first, by whole minutes', () => {
    const quarterHours = parseCronExpression('*/15 * * * *');
    expect(isoList(dueMinutes(quarterHours, utc('2030-01-01T10:00:30'), utc('2030-01-01T10:45:10')))).toEqual([
      '2030-01-01T10:15',
      '2030-01-01T10:30',
      '2030-01-01T10:45',
    ]);
    expect(dueMinutes(quarterHours, utc('2030-01-01T10:45:00'), utc('2030-01-01T10:59:59'))).toEqual([]);
    expect(dueMinutes(quarterHours, utc('2030-01-01T11:00:00'), utc('2030-01-01T10:00:00'))).toEqual([]);
    expect(isoList(dueMinutes(parseCronExpression('* * * * *'), utc('2030-01-01T10:00:59'), utc('2030-01-01T10:02:00')))).toEqual([
      '2030-01-01T10:01',
      '2030-01-01T10:02',
    ]);
  });

  it('crosses days, months and years, skipping days and hours that cannot match', () => {
    const firstOfMonth = parseCronExpression('30 2 1 * *');
    expect(isoList(dueMinutes(firstOfMonth, utc('2029-11-15T00:00:00'), utc('2030-02-01T02:30:00')))).toEqual([
      '2029-12-01T02:30',
      '2030-01-01T02:30',
      '2030-02-01T02:30',
    ]);
    const leapDay = parseCronExpression('0 12 29 2 *');
    expect(isoList(dueMinutes(leapDay, utc('2029-01-01T00:00:00'), utc('2033-01-01T00:00:00')))).toEqual(['2032-02-29T12:00']);
    expect(dueMinutes(parseCronExpression('0 0 31 2 *'), utc('2030-01-01T00:00:00'), utc('2031-01-01T00:00:00'))).toEqual([]);
  });

  it('walks a 30-year window (days and hours that cannot match are skipped whole)', () => {
    const mondays = dueMinutes(parseCronExpression('0 9 * * 1'), utc('2000-01-01T00:00:00'), utc('2030-01-01T00:00:00'));
    expect(mondays).toHaveLength(1566);
    expect(mondays.every((minute) => minute.getUTCDay() === 1 && minute.getUTCHours() === 9 && minute.getUTCMinutes() === 0)).toBe(true);
  });

  it('floorToMinute drops seconds', () => {
    expect(floorToMinute(utc('2030-01-01T10:00:59.999')).toISOString()).toBe('2030-01-01T10:00:00.000Z');
  });
});
