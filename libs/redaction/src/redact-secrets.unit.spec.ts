import { MIN_EXACT_SECRET_LENGTH, createRedactor, redactSecrets, usableExactSecrets } from './redact-secrets';
import { REDACTION_KINDS, redactionMarker } from './secret-patterns';
import { SAMPLED_KINDS, SECRET_SAMPLES } from './secret-samples';

describe('redactSecrets: the corpus', () => {
  it('covers at least 20 kinds', () => {
    expect(SAMPLED_KINDS.length).toBeGreaterThanOrEqual(20);
    expect(REDACTION_KINDS.filter((kind) => kind !== 'known_secret' && !SAMPLED_KINDS.includes(kind))).toEqual([]);
  });

  it.each(SECRET_SAMPLES.map((entry) => [entry.kind, entry] as const))('redacts %s and keeps its context', (kind, entry) => {
    // Given a line of agent output holding the secret
    // When it is redacted
    const redacted = redactSecrets(entry.text);
    // Then the secret is gone, replaced by its kind's marker, and the rest of the line stays
    expect(redacted).not.toContain(entry.secret);
    expect(redacted).toContain(redactionMarker(kind));
    expect(redacted).toBe(entry.text.replace(entry.secret, redactionMarker(kind)));
  });

  it('finds a secret whose key overlaps another key word', () => {
    expect(redactSecrets('clientsecretoken=abc123def456')).toBe('clientsecretoken=[REDACTED:token]');
    expect(redactSecrets('sk-ant-short sk-ant-xyz1234567890abcdefgh')).toContain('[REDACTED:');
  });

  it('is idempotent: redacting redacted text changes nothing', () => {
    const everything = SECRET_SAMPLES.map((entry) => entry.text).join('\n---\n');
    const once = redactSecrets(everything);
    expect(redactSecrets(once)).toBe(once);
    for (const entry of SECRET_SAMPLES) expect(once).not.toContain(entry.secret);
  });
});

describe('redactSecrets: what must stay', () => {
  it.each([
    ['ordinary prose', 'The task-runner skipped risk-assessment and asked for a password reset flow; tokens are counted per model.'],
    ['kebab words starting with sk-', 'pip install sk-learn-extensions-for-everyone and risk-management-framework-overview'],
    ['a git SHA', 'HEAD is now at 3f2c1a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 Fix the loader'],
    ['a sha256 digest', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['UUIDs', 'task 550e8400-e29b-41d4-a716-446655440000 and event 0190a5d2-7c4b-7e3a-9f1d-2b6c8e4a1f30'],
    ['base64 that is no key', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='],
    ['token counts', 'usage: input_tokens: 1200, output_tokens: 340, max_tokens=4096, token_count=5'],
    ['a TypeScript interface', 'interface Login {\n  password: string;\n  token?: string | undefined;\n  apiKey: unknown;\n}'],
    ['code reading a secret', 'const token = await getToken();\nif (password === "") return;\nheaders.authorization = token;\nconst auth = { token: getToken() };'],
    ['null-ish values', 'login(user=u, password=None) and token=null and {"token": null}'],
    ['placeholders', 'Set `GITHUB_TOKEN=<your token>` or API_KEY=${API_KEY}, password: <secret>, token: %s'],
    ['prose about flags', 'Pass --token to log in, or --password when asked.'],
    ['bearer in prose', 'Bearer authentication is described in RFC 6750.'],
    ['URLs without a password', 'https://user@github.com/org/repo.git and https://example.com:8443/path and git@github.com:org/repo.git'],
    ['a public key', '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----'],
    ['an email address', 'mail ops@example.com about pwd: /home/ops'],
    ['short AKIA-like words', 'AKIAEXAMPLE and ghp_short and npm_install'],
  ])('leaves %s alone', (_label, text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('redactSecrets: exact secrets', () => {
  it('replaces the caller’s secrets wherever they appear, also URL- or JSON-escaped', () => {
    // Given an agent env value and a task token
    const envValue = 'my db pass "42"/x';
    const taskToken = 'swt_4f1c9a7b2e8d6c5a';
    const text = `env ${envValue}; url ?p=${encodeURIComponent(envValue)}; json ${JSON.stringify({ value: envValue })}; token ${taskToken}.`;
    // When redacted with them as exact secrets
    const redacted = redactSecrets(text, { exactSecrets: [envValue, taskToken] });
    // Then no form of either survives
    expect(redacted).toBe('env [REDACTED:known_secret]; url ?p=[REDACTED:known_secret]; json {"value":"[REDACTED:known_secret]"}; token [REDACTED:known_secret].');
  });

  it('replaces the longest secret first, so one containing another goes whole', () => {
    const redacted = redactSecrets('value=abcdefgh1234 and abcdefgh12', { exactSecrets: ['abcdefgh12', 'abcdefgh1234'] });
    expect(redacted).toBe('value=[REDACTED:known_secret] and [REDACTED:known_secret]');
  });

  it(`ignores secrets shorter than ${MIN_EXACT_SECRET_LENGTH} characters`, () => {
    const text = 'a short answer: yes, debug is true';
    expect(redactSecrets(text, { exactSecrets: ['a', 'yes', 'debug', 'true', 'short1'] })).toBe(text);
    expect(usableExactSecrets(['a', '1234567', '12345678'])).toEqual(['12345678']);
  });

  it('treats regular-expression characters in a secret literally', () => {
    const redactor = createRedactor({ exactSecrets: ['a+b*c?(d)[e]{f}|g^h$i\\j'] });
    expect(redactor('x a+b*c?(d)[e]{f}|g^h$i\\j y aab')).toBe('x [REDACTED:known_secret] y aab');
  });
});
