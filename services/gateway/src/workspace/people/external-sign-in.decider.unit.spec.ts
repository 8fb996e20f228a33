import { decideExternalSignIn, type ExternalIdentity, type ExternalIdentityFacts } from './external-sign-in.decider';
import type { UserView } from './people.schemas';

const ada: UserView = { id: 'user-ada', email: 'ada@example.com', displayName: 'Ada', hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' };
const other: UserView = { id: 'user-other', email: 'other@example.com', displayName: 'Other', hasPassword: false, createdAt: '2026-01-01T00:00:00.000Z' };

const identity = (overrides: Partial<ExternalIdentity> = {}): ExternalIdentity => ({
  issuer: 'https://id.example.com',
  subject: 'subject-1',
  email: 'Ada@Example.com ',
  emailVerified: true,
  name: 'Ada Lovelace',
  ...overrides,
});

const facts = (overrides: Partial<ExternalIdentityFacts> = {}): ExternalIdentityFacts => ({ linked: { kind: 'none' }, accountWithEmail: undefined, createAccounts: false, ...overrides });

describe('deciding which account an external identity signs in', () => {
  it('given a linked identity, signs in its account, whatever account has the email now', () => {
    const decision = decideExternalSignIn(identity(), facts({ linked: { kind: 'active', user: other }, accountWithEmail: { user: ada, linkedAtIssuer: false } }));

    expect(decision).toEqual({ kind: 'sign_in', user: other });
  });

  it('given an identity linked to a disabled account, refuses rather than link or create another', () => {
    const decision = decideExternalSignIn(identity(), facts({ linked: { kind: 'disabled' }, createAccounts: true }));

    expect(decision).toEqual({ kind: 'refuse', reason: 'the account linked to this identity is disabled' });
  });

  it('given a new identity with the verified email of an active account, links it to that account', () => {
    const decision = decideExternalSignIn(identity(), facts({ accountWithEmail: { user: ada, linkedAtIssuer: false } }));

    expect(decision).toEqual({ kind: 'link', user: ada });
  });

  it('given the account with that email already has another identity at this issuer, refuses (a recycled address takes over nothing)', () => {
    const decision = decideExternalSignIn(identity(), facts({ accountWithEmail: { user: ada, linkedAtIssuer: true }, createAccounts: true }));

    expect(decision).toEqual({ kind: 'refuse', reason: 'the account ada@example.com is linked to another identity of this provider' });
  });

  it('given no account with the email and account creation on, creates one named as the provider names the person', () => {
    const decision = decideExternalSignIn(identity(), facts({ createAccounts: true }));

    expect(decision).toEqual({ kind: 'create', email: 'ada@example.com', displayName: 'Ada Lovelace' });
  });

  it('given no name from the provider, names the new account after the email, and bounds a long name', () => {
    expect(decideExternalSignIn(identity({ name: '  ' }), facts({ createAccounts: true }))).toEqual({ kind: 'create', email: 'ada@example.com', displayName: 'ada' });
    expect(decideExternalSignIn(identity({ name: 'x'.repeat(300) }), facts({ createAccounts: true }))).toMatchObject({ kind: 'create', displayName: 'x'.repeat(100) });
  });

  it('given no account with the email and account creation off, refuses: people join by invitation', () => {
    const decision = decideExternalSignIn(identity(), facts());

    expect(decision).toEqual({ kind: 'refuse', reason: 'no account has the email ada@example.com: people join by invitation (ask a workspace admin for one)' });
  });

  it('refuses an unverified email in every case, a linked identity and a matching account included', () => {
    const unverified = identity({ emailVerified: false });
    const every: ExternalIdentityFacts[] = [
      facts({ linked: { kind: 'active', user: ada } }),
      facts({ accountWithEmail: { user: ada, linkedAtIssuer: false } }),
      facts({ createAccounts: true }),
    ];

    for (const known of every) {
      expect(decideExternalSignIn(unverified, known)).toEqual({ kind: 'refuse', reason: 'the identity provider does not vouch for the email ada@example.com (email_verified is not true)' });
    }
  });

  it('refuses an identity without an email', () => {
    expect(decideExternalSignIn(identity({ email: undefined }), facts({ linked: { kind: 'active', user: ada } }))).toEqual({ kind: 'refuse', reason: 'the identity provider gave no email address' });
    expect(decideExternalSignIn(identity({ email: ' ' }), facts({ createAccounts: true }))).toMatchObject({ kind: 'refuse' });
  });
});
