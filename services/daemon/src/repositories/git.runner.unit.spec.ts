import { gitOutputRedactor } from './git.runner';

describe('gitOutputRedactor', () => {
  const credential = { kind: 'https_token', username: 'bot', secret: 'glpat-abcdefghijklmnop' } as const;

  it('Given git echoing the secret or a URL with userinfo, when redacted, then neither is left', () => {
    const redact = gitOutputRedactor(credential);
    const redacted = redact("fatal: unable to access 'https://bot:glpat-abcdefghijklmnop@example.com/x.git/': 403\nshort secret glpat-abcdefghijklmnop");
    expect(redacted).not.toContain('glpat-abcdefghijklmnop');
    expect(redacted).toContain("'https://example.com/x.git/'");
  });

  it('Given a short secret the shared redactor ignores, when redacted, then it is replaced anyway', () => {
    expect(gitOutputRedactor({ ...credential, secret: 'tok12' })('answer was tok12')).toBe('answer was [REDACTED:known_secret]');
  });

  it('Given no credential, when redacted, then plain text is untouched', () => {
    expect(gitOutputRedactor(null)("fatal: repository '/tmp/x' does not exist")).toBe("fatal: repository '/tmp/x' does not exist");
  });
});
