import { z } from 'zod';

export const SUBJECT_SEGMENT_ERROR_CODES = {
  empty: 'empty',
  contains_separator: 'contains_separator',
  contains_wildcard: 'contains_wildcard',
  contains_whitespace: 'contains_whitespace',
  too_long: 'too_long',
} as const;

export type SubjectSegmentErrorCode = keyof typeof SUBJECT_SEGMENT_ERROR_CODES;

/** Ids become subject segments, so one id must never span, widen or split a subject. */
export const MAXIMUM_SUBJECT_SEGMENT_LENGTH = 256;

export class SubjectSegmentError extends Error {
  override readonly name = 'SubjectSegmentError';

  constructor(
    readonly code: SubjectSegmentErrorCode,
    readonly segment: string,
    readonly label: string,
  ) {
    super(`Invalid subject segment for ${label} (${code}): ${JSON.stringify(segment)}`);
  }
}

export function subjectSegmentProblem(segment: string): SubjectSegmentErrorCode | null {
  if (segment.length === 0) return 'empty';
  if (segment.length > MAXIMUM_SUBJECT_SEGMENT_LENGTH) return 'too_long';
  if (segment.includes('.')) return 'contains_separator';
  if (segment.includes('*') || segment.includes('>')) return 'contains_wildcard';
  if (/\s/.test(segment)) return 'contains_whitespace';
  return null;
}

export function isValidSubjectSegment(segment: string): boolean {
  return subjectSegmentProblem(segment) === null;
}

/** Returns the segment unchanged so builders can validate inline. */
export function assertSubjectSegment(segment: string, label = 'segment'): string {
  const problem = subjectSegmentProblem(segment);
  if (problem !== null) throw new SubjectSegmentError(problem, segment, label);
  return segment;
}

/** Schema for every id that may end up in a subject (task, runtime, daemon, session, request). */
export const identifierSchema = z.string().superRefine((value, context) => {
  const problem = subjectSegmentProblem(value);
  if (problem !== null) {
    context.addIssue({
      code: 'custom',
      message: `Not usable as a subject segment (${problem})`,
      params: { subjectSegment: problem },
    });
  }
});
