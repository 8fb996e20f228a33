import { SENSITIVE_KEY_PATTERN } from './config-fields';

/** A copy of a config fit for logs: sensitive keys masked, URLs stripped of their passwords. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      safe[key] = stripUrlPassword(value);
    } else if (SENSITIVE_KEY_PATTERN.test(key)) {
      safe[key] = value === undefined ? undefined : '[redacted]';
    } else {
      safe[key] = value;
    }
  }
  return safe;
}

function stripUrlPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '[redacted]';
  }
}
