import type { z } from 'zod';
import { ApiError } from '../../workspace/common/api-error';

export type InputLocation = 'body' | 'query' | 'path' | 'header';

export interface InputIssue {
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
}

/**
 * Validates request input before anything is written; every problem is listed in `details.issues`.
 * `classify` may turn specific issues into a more precise error (e.g. `unknown_protocol_family`).
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  options: { readonly location: InputLocation; readonly classify?: (error: z.ZodError) => ApiError | undefined },
): z.output<Schema> {
  // A request without a body reaches us as undefined; an empty object says the same.
  const result = schema.safeParse(options.location === 'body' ? (value ?? {}) : value);
  if (result.success) return result.data;
  const specific = options.classify?.(result.error);
  if (specific) throw specific;
  const issues = issuesOf(result.error);
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new ApiError('validation_failed', `invalid ${options.location}: ${summary}`, { issues });
}
