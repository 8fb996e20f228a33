import { SECRET_PATTERNS, redactionMarker, type SecretPattern } from './secret-patterns';

/**
 * Exact secrets shorter than this are ignored: a one-letter env value would otherwise redact every
 * occurrence of that letter. Eight characters keeps flags and words (`true`, `debug`, `en_US`)
 * readable while every real credential is longer.
 */
export const MIN_EXACT_SECRET_LENGTH = 8;

export interface RedactOptions {
  /**
   * Values known to be secret (an agent's env values, the task token), replaced wherever they
   * appear, also URL- or JSON-escaped. Values under MIN_EXACT_SECRET_LENGTH are ignored.
   */
  readonly exactSecrets?: readonly string[];
}

/** A compiled redactor: build it once per set of exact secrets, call it per string. */
export type Redactor = (text: string) => string;

const KNOWN_SECRET_MARKER = redactionMarker('known_secret');

// Each pattern with the keys of its hints (lower-cased when it ignores case), and one scanner per
// case mode that finds every hint in a single pass.
const INDEXED_PATTERNS = SECRET_PATTERNS.map((pattern) => ({
  pattern,
  keys: pattern.hints.map((hint) => (pattern.pattern.ignoreCase ? hint.toLowerCase() : hint)),
}));
const hintScanner = (ignoreCase: boolean): { readonly scanner: RegExp; readonly implied: ReadonlyMap<string, readonly string[]> } => {
  const hints = [...new Set(INDEXED_PATTERNS.filter((entry) => entry.pattern.pattern.ignoreCase === ignoreCase).flatMap((entry) => entry.keys))];
  // Longest first, so `sk-ant-` is found whole; it then also counts as `sk-`, which it contains.
  const alternatives = [...hints].sort((left, right) => right.length - left.length).map(escapeRegExp);
  const implied = new Map(hints.map((hint) => [hint, hints.filter((other) => hint.includes(other))]));
  return { scanner: new RegExp(alternatives.length > 0 ? alternatives.join('|') : '(?!)', ignoreCase ? 'gi' : 'g'), implied };
};
const HINT_SCANNERS = [hintScanner(false), hintScanner(true)];

/** The exact secrets worth matching: long enough, deduplicated, longest first. */
export function usableExactSecrets(values: readonly string[]): string[] {
  const usable = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_EXACT_SECRET_LENGTH) continue;
    usable.add(value);
    // The same secret as it appears in a URL or inside a JSON string literal.
    usable.add(encodeURIComponent(value));
    usable.add(JSON.stringify(value).slice(1, -1));
  }
  return [...usable].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
}

export function createRedactor(options: RedactOptions = {}): Redactor {
  const exact = usableExactSecrets(options.exactSecrets ?? []);
  // Longest first, so a secret containing another is replaced whole.
  const exactPattern = exact.length > 0 ? new RegExp(exact.map(escapeRegExp).join('|'), 'g') : undefined;
  return (text) => {
    let result = exactPattern ? text.replace(exactPattern, KNOWN_SECRET_MARKER) : text;
    // Which hints the text holds, found in one scan per case mode. Redacting only puts in markers,
    // which no pattern matches, so the set stays valid while the patterns run.
    const present = new Set<string>();
    for (const { scanner, implied } of HINT_SCANNERS) {
      scanner.lastIndex = 0;
      for (let match = scanner.exec(result); match !== null; match = scanner.exec(result)) {
        for (const key of implied.get(scanner.ignoreCase ? match[0].toLowerCase() : match[0]) ?? []) present.add(key);
        // Resume one character on, not after the match: hints may overlap (`secretoken=` holds
        // both `secret` and `token`).
        scanner.lastIndex = match.index + 1;
      }
    }
    if (present.size === 0) return result;
    for (const { pattern, keys } of INDEXED_PATTERNS) {
      if (keys.some((key) => present.has(key))) result = applyPattern(result, pattern);
    }
    return result;
  };
}

/** Replaces every recognised secret in `text` with `[REDACTED:<kind>]`. */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  return createRedactor(options)(text);
}

function applyPattern(text: string, { kind, pattern, isFalsePositive }: SecretPattern): string {
  // Cheap exit: most strings hold no secret at all.
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  const marker = redactionMarker(kind);
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest[rest.length - 1] as Record<string, string | undefined> | undefined;
    const keep = typeof groups === 'object' && groups !== null ? (groups['keep'] ?? '') : '';
    const value = match.slice(keep.length);
    if (isFalsePositive?.(value)) return match;
    return keep + marker;
  });
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
