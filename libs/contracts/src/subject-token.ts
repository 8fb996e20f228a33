import { z } from 'zod';

export const SUBJECT_TOKEN_ERROR_CODES = {
  empty: 'empty',
  contains_separator: 'contains_separator',
  contains_wildcard: 'contains_wildcard',
  contains_whitespace: 'contains_whitespace',
  too_long: 'too_long',
} as const;

export type SubjectTokenErrorCode = keyof typeof SUBJECT_TOKEN_ERROR_CODES;

/** Ids become subject tokens, so one id must never span, widen or split a subject. */
export const MAXIMUM_SUBJECT_TOKEN_LENGTH = 256;

export class SubjectTokenError extends Error {
  override readonly name = 'SubjectTokenError';

  constructor(
    readonly code: SubjectTokenErrorCode,
    readonly token: string,
    readonly label: string,
  ) {
    super(`Invalid subject token for ${label} (${code}): ${JSON.stringify(token)}`);
  }
}

export function subjectTokenProblem(token: string): SubjectTokenErrorCode | null {
  if (token.length === 0) return 'empty';
  if (token.length > MAXIMUM_SUBJECT_TOKEN_LENGTH) return 'too_long';
  if (token.includes('.')) return 'contains_separator';
  if (token.includes('*') || token.includes('>')) return 'contains_wildcard';
  if (/\s/.test(token)) return 'contains_whitespace';
  return null;
}

export function isValidSubjectToken(token: string): boolean {
  return subjectTokenProblem(token) === null;
}

/** Returns the token unchanged so builders can validate inline. */
export function assertSubjectToken(token: string, label = 'token'): string {
  const problem = subjectTokenProblem(token);
  if (problem !== null) throw new SubjectTokenError(problem, token, label);
  return token;
}

/** Schema for every id that may end up in a subject (task, runtime, daemon, session, request). */
export const identifierSchema = z.string().superRefine((value, context) => {
  const problem = subjectTokenProblem(value);
  if (problem !== null) {
    context.addIssue({
      code: 'custom',
      message: `Not usable as a subject token (${problem})`,
      params: { subjectToken: problem },
    });
  }
});
