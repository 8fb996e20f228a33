import { z } from 'zod';
import { ConfigValidationError, type ConfigProblem } from './config-validation.error';

export interface LoadConfigOptions<Schema extends z.ZodObject> {
  readonly service: string;
  readonly schema: Schema;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Parses the environment once at boot. Every bad key is reported together, and the messages
 * come from the schema, never from the offending value (which may be a secret).
 */
export function loadConfig<Schema extends z.ZodObject>(options: LoadConfigOptions<Schema>): z.infer<Schema> {
  const result = options.schema.safeParse(options.env ?? process.env);
  if (result.success) return result.data;
  const problems: ConfigProblem[] = result.error.issues.map((issue) => ({
    key: issue.path.map(String).join('.') || '(root)',
    problem: describeIssue(issue),
  }));
  throw new ConfigValidationError(options.service, problems);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  // zod's messages for these codes can quote the received value; say what was expected instead.
  if (issue.code === 'invalid_value') return `must be one of: ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_type') return `must be a ${issue.expected}`;
  return issue.message;
}
