/**
 * Every kind of secret the redactor recognises; the marker left in the text is
 * `[REDACTED:<kind>]`. Order in SECRET_PATTERNS matters (specific vendor formats before generic
 * key-value pairs), order here is only for documentation.
 */
export const REDACTION_KINDS = [
  'known_secret',
  'private_key',
  'anthropic_api_key',
  'openai_api_key',
  'github_token',
  'github_pat',
  'gitlab_token',
  'npm_token',
  'huggingface_token',
  'slack_token',
  'slack_webhook',
  'stripe_key',
  'stripe_webhook_secret',
  'sendgrid_api_key',
  'twilio_api_key',
  'google_api_key',
  'google_oauth_token',
  'aws_access_key_id',
  'aws_secret_access_key',
  'jwt',
  'url_password',
  'authorization',
  'bearer_token',
  'password',
  'secret',
  'token',
  'api_key',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/**
 * One recognisable secret. A pattern either replaces its whole match, or, when it has a `keep`
 * group (the key of a `key=value` pair, a URL's user), keeps that group and replaces the rest.
 * `isFalsePositive` can veto a match (e.g. `password: string` in a TypeScript interface).
 */
export interface SecretPattern {
  readonly kind: RedactionKind;
  readonly pattern: RegExp;
  /**
   * Literals one of which every match contains (compared case-insensitively when the pattern is):
   * one scan finds every hint of a string, and patterns whose hints are absent do not run.
   */
  readonly hints: readonly string[];
  readonly isFalsePositive?: (value: string) => boolean;
}

// Token boundaries: a key must not be the tail of a longer identifier-like run. Lookbehind keeps
// the boundary out of the match, so nothing around the secret is eaten.
const START = String.raw`(?<![A-Za-z0-9_-])`;
const END = String.raw`(?![A-Za-z0-9_-])`;
// A value that an earlier pattern (or an earlier pass) already replaced is left alone, so
// redacting twice gives the same text as redacting once.
const NOT_REDACTED = String.raw`(?!\[REDACTED:)`;

const vendor = (kind: RedactionKind, hints: readonly string[], body: string): SecretPattern => ({ kind, hints, pattern: new RegExp(body, 'g') });

/** Vendor token formats: distinctive prefixes, so the whole token goes. */
const VENDOR_PATTERNS: readonly SecretPattern[] = [
  // PEM blocks of any private key type; an unterminated block (a truncated preview) goes to the end.
  vendor('private_key', ['PRIVATE KEY'], String.raw`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)`),
  vendor('anthropic_api_key', ['sk-ant-'], String.raw`${START}sk-ant-[A-Za-z0-9_-]{20,}`),
  // `sk-` alone is common in kebab-case words: a key must contain a digit.
  vendor('openai_api_key', ['sk-'], String.raw`${START}sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}`),
  vendor('github_token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], String.raw`(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}(?![A-Za-z0-9])`),
  vendor('github_pat', ['github_pat_'], String.raw`(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{22,}`),
  vendor('gitlab_token', ['glpat-'], String.raw`${START}glpat-[A-Za-z0-9_-]{20,}`),
  vendor('npm_token', ['npm_'], String.raw`(?<![A-Za-z0-9])npm_[A-Za-z0-9]{30,}(?![A-Za-z0-9])`),
  vendor('huggingface_token', ['hf_'], String.raw`(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])`),
  vendor('slack_token', ['xox', 'xapp-'], String.raw`${START}(?:xox[abprs]|xapp)-[0-9A-Za-z-]{10,}`),
  vendor('slack_webhook', ['hooks.slack.com'], String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]+`),
  vendor('stripe_key', ['_live_', '_test_'], String.raw`(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`),
  vendor('stripe_webhook_secret', ['whsec_'], String.raw`(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{24,}`),
  vendor('sendgrid_api_key', ['SG.'], String.raw`${START}SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
  vendor('twilio_api_key', ['SK'], String.raw`(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])`),
  vendor('google_api_key', ['AIza'], String.raw`${START}AIza[0-9A-Za-z_-]{35}${END}`),
  vendor('google_oauth_token', ['ya29.'], String.raw`${START}ya29\.[0-9A-Za-z_-]{20,}`),
  vendor('aws_access_key_id', ['AKIA', 'ASIA', 'ABIA', 'ACCA'], String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`),
  // Header and payload are base64url JSON objects, so both start `eyJ` (`{"`).
  vendor('jwt', ['eyJ'], String.raw`${START}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`),
];

/** Words that, unquoted after `key:`, are code or placeholders rather than a secret. */
const NON_SECRET_WORDS = new Set([
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'boolean',
  'bool',
  'bytes',
  'any',
  'unknown',
  'never',
  'object',
  'required',
  'optional',
  'redacted',
  '***',
]);
const isCodeWord = (value: string): boolean => NON_SECRET_WORDS.has(value.toLowerCase());

/** Key words whose value is a secret; the kind names the family. The key must END with one. */
const KEY_WORDS: ReadonlyArray<{ readonly kind: RedactionKind; readonly words: string; readonly hints: readonly string[] }> = [
  { kind: 'password', words: 'passw(?:or)?d|passphrase', hints: ['passw', 'passphrase'] },
  { kind: 'secret', words: 'secret(?:[_-]?key)?', hints: ['secret'] },
  { kind: 'token', words: 'token', hints: ['token'] },
  { kind: 'api_key', words: 'api[_-]?key|access[_-]?key|private[_-]?key', hints: ['key'] },
];

const SECRET_KEYS: ReadonlyArray<{ readonly kind: RedactionKind; readonly key: RegExp }> = [
  { kind: 'aws_secret_access_key', key: /aws_?secret_?access_?key$/i },
  { kind: 'authorization', key: /^(?:proxy-)?authorization$/i },
  ...KEY_WORDS.map(({ kind, words }) => ({ kind, key: new RegExp(`(?:${words})$`, 'i') })),
];

/**
 * The kind of secret a structured field holds, judged by its key (`password`, `GITHUB_TOKEN`,
 * `apiKey`, `Authorization`), or undefined for an ordinary key. Used for JSON objects, where the
 * value carries no `key=` context of its own.
 */
export function secretKindOfKey(key: string): RedactionKind | undefined {
  return SECRET_KEYS.find((entry) => entry.key.test(key))?.kind;
}

/** Whether a value under a secret key is nonetheless no secret (`null`, `string`, ...). */
export function isPlaceholderValue(value: string): boolean {
  return value.trim() === '' || /^\[REDACTED:[a-z_]+\]$/.test(value) || isCodeWord(value) || /^(?:<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*)$/.test(value);
}

function keyValuePatterns(): SecretPattern[] {
  const patterns: SecretPattern[] = [];
  for (const { kind, words, hints } of KEY_WORDS) {
    const key = String.raw`(?:${words})`;
    const forms = [
      // `password = "x"`, `"token": "x"` (JSON escapes inside the value allowed).
      String.raw`(?<keep>${key}"?[ \t]*[:=][ \t]*")${NOT_REDACTED}(?:[^"\\\n]|\\.)+(?=")`,
      // `api_key: 'x'`.
      String.raw`(?<keep>${key}'?[ \t]*[:=][ \t]*')${NOT_REDACTED}[^'\n]+(?=')`,
      // JSON inside a JSON string: `{\"token\":\"x\"}`.
      String.raw`(?<keep>${key}\\"[ \t]*[:=][ \t]*\\")${NOT_REDACTED}[^"\\\n]+(?=\\")`,
    ];
    for (const form of forms) patterns.push({ kind, hints, pattern: new RegExp(form, 'gi') });
    // `PASSWORD=x`, `?token=x&`, `--api-key=x`: no space before `=` (a spaced `=` is code). The
    // value is matched atomically (lookahead + backreference), so a veto cannot backtrack into a
    // partial redaction.
    patterns.push({
      kind,
      hints,
      pattern: new RegExp(String.raw`(?<keep>${key}=)${NOT_REDACTED}(?![<$%{(])(?=(?<value>[^\s"'&,;()\[\]{}<>]+))\k<value>`, 'gi'),
      isFalsePositive: isCodeWord,
    });
    // `--password hunter2` on a command line; "pass --token to log in" is prose.
    patterns.push({
      kind,
      hints,
      pattern: new RegExp(String.raw`(?<keep>(?<![^\s"'=])--?[A-Za-z0-9-]{0,40}?${key}[ \t]+)${NOT_REDACTED}(?![-<$%{"'])(?=(?<value>[^\s"']+))\k<value>`, 'gi'),
      isFalsePositive: (value) => isCodeWord(value) || /^[a-z]{1,12}[.,:;]?$/.test(value),
    });
    // `password: x` (YAML, HTTP headers, JSON numbers) unless it reads as code: a type word, a
    // call, a placeholder (`<...>`, `${...}`, `%s`).
    patterns.push({
      kind,
      hints,
      pattern: new RegExp(
        String.raw`(?<keep>${key}["']?[ \t]*:[ \t]*)${NOT_REDACTED}(?![<$%{(\["'])(?=(?<value>[^\s"',;()\[\]{}<>]+))\k<value>(?![ \t]*\()`,
        'gi',
      ),
      isFalsePositive: isCodeWord,
    });
  }
  return patterns;
}

/** Secrets recognised by where they sit rather than what they look like. */
const CONTEXT_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'aws_secret_access_key',
    hints: ['aws'],
    pattern: new RegExp(String.raw`(?<keep>aws_?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?)${NOT_REDACTED}[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`, 'gi'),
  },
  // `scheme://user:password@host`: the user stays, the password goes.
  {
    kind: 'url_password',
    hints: ['://'],
    pattern: new RegExp(String.raw`(?<keep>\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:/?#@"'<>[\]]{1,256}:)${NOT_REDACTED}[^\s/?#@"'<>]{1,256}(?=@)`, 'g'),
  },
  // `Authorization: Basic x`, `{'Authorization': 'Bearer x'}`; a spaced `=` is code, not a header.
  // The scheme is matched atomically, so a redacted value never exposes the scheme as a value.
  {
    kind: 'authorization',
    hints: ['authorization'],
    pattern: new RegExp(
      String.raw`(?<keep>\b(?:Proxy-)?Authorization["']?(?:[ \t]*:[ \t]*|=)["']?(?=(?<scheme>(?:Bearer|Basic|Token|Digest|Bot|Negotiate|NTLM)[ \t]+)?)\k<scheme>)${NOT_REDACTED}(?![<$%{(\x60])[^\s"']+`,
      'gi',
    ),
    isFalsePositive: isCodeWord,
  },
  // A bearer token outside an Authorization header (curl lines, logs): must look like a token.
  {
    kind: 'bearer_token',
    hints: ['bearer'],
    pattern: new RegExp(String.raw`(?<keep>\bBearer[ \t]+)${NOT_REDACTED}(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*`, 'gi'),
  },
];

/** Every pattern, in the order they are applied. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [...VENDOR_PATTERNS, ...CONTEXT_PATTERNS, ...keyValuePatterns()];
