import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import type { RawQueryRunner } from '../database/returning-rows';
import { decideExternalSignIn, type ExternalIdentity, type ExternalIdentityFacts, type ExternalSignInDecision } from './external-sign-in.decider';
import type { UserView } from './people.schemas';
import { UsersRepository, normalizeEmail } from './users.repository';

/** What signing in with an external identity came to: the account, and how it was found; or why not. */
export type ExternalSignIn = { readonly outcome: 'signed_in' | 'linked' | 'created'; readonly user: UserView } | { readonly outcome: 'refused'; readonly reason: string };

/** A step another request made moot meanwhile (it linked the identity, or took the email); deciding again sees what it did. */
type Superseded = { readonly outcome: 'superseded'; readonly reason: string };

/** Decisions made per sign-in: the second sees what a concurrent sign-in of the same person wrote. */
const DECISION_ATTEMPTS = 2;

/** Thrown inside the account-creating transaction so that the account is rolled back with the link that could not be made. */
class IdentityLinkedMeanwhile extends Error {}

/**
 * External identities (`user_identity`: an OIDC issuer and subject) linked to accounts, and the
 * sign-in that uses them: a known identity signs in its account; a verified email of an active
 * account links it; else a new account when `GATEWAY_OIDC_CREATE_ACCOUNTS`, else a refusal
 * (external-sign-in.decider.ts has the rules).
 */
@Injectable()
export class UserIdentitiesRepository {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
  ) {}

  /** The account linked to this identity (active or not), if any. */
  async linkedUserIdOf(identity: Pick<ExternalIdentity, 'issuer' | 'subject'>, runner: RawQueryRunner = this.dataSource): Promise<string | undefined> {
    const [row] = await runner.query<Array<{ user_id: string }>>('select user_id from user_identity where issuer = $1 and subject = $2', [identity.issuer, identity.subject]);
    return row?.user_id;
  }

  /** Whether the account has an identity at this issuer. */
  async hasIdentityAt(userId: string, issuer: string, runner: RawQueryRunner = this.dataSource): Promise<boolean> {
    const rows = await runner.query<unknown[]>('select 1 from user_identity where user_id = $1 and issuer = $2 limit 1', [userId, issuer]);
    return rows.length > 0;
  }

  /** Links the identity to the account; false when it is linked already (to this account or another). */
  async link(options: { readonly issuer: string; readonly subject: string; readonly userId: string }, runner: RawQueryRunner = this.dataSource): Promise<boolean> {
    const rows = await runner.query<unknown[]>('insert into user_identity (issuer, subject, user_id) values ($1, $2, $3) on conflict (issuer, subject) do nothing returning user_id', [
      options.issuer,
      options.subject,
      options.userId,
    ]);
    return rows.length > 0;
  }

  /** The account an identity the provider vouched for signs in, linked or created as the rules say; or why not. */
  async signIn(identity: ExternalIdentity, options: { readonly createAccounts: boolean }): Promise<ExternalSignIn> {
    let superseded: Superseded | undefined;
    for (let attempt = 0; attempt < DECISION_ATTEMPTS; attempt += 1) {
      const decision = decideExternalSignIn(identity, await this.factsOf(identity, options.createAccounts));
      const done = await this.carryOut(identity, decision);
      if (done.outcome !== 'superseded') return done;
      superseded = done;
    }
    return { outcome: 'refused', reason: superseded?.reason ?? 'the sign-in could not be completed' };
  }

  private async factsOf(identity: ExternalIdentity, createAccounts: boolean): Promise<ExternalIdentityFacts> {
    const linkedUserId = await this.linkedUserIdOf(identity);
    // `find` sees active accounts only: a linked id it does not find is a disabled account.
    const linkedUser = linkedUserId === undefined ? undefined : await this.users.find(linkedUserId);
    const linked: ExternalIdentityFacts['linked'] = linkedUserId === undefined ? { kind: 'none' } : linkedUser ? { kind: 'active', user: linkedUser } : { kind: 'disabled' };
    const withEmail = identity.email === undefined || identity.email.trim() === '' ? undefined : await this.users.findByEmail(identity.email);
    const accountWithEmail = withEmail ? { user: withEmail, linkedAtIssuer: await this.hasIdentityAt(withEmail.id, identity.issuer) } : undefined;
    return { linked, accountWithEmail, createAccounts };
  }

  private async carryOut(identity: ExternalIdentity, decision: ExternalSignInDecision): Promise<ExternalSignIn | Superseded> {
    switch (decision.kind) {
      case 'refuse':
        return { outcome: 'refused', reason: decision.reason };
      case 'sign_in':
        return { outcome: 'signed_in', user: decision.user };
      case 'link':
        if (await this.link({ issuer: identity.issuer, subject: identity.subject, userId: decision.user.id })) return { outcome: 'linked', user: decision.user };
        return { outcome: 'superseded', reason: 'this identity was linked to an account meanwhile' };
      case 'create':
        return this.createLinked(identity, decision);
    }
  }

  /** A new account without a password, linked to the identity, in one transaction: never an account without its link. */
  private async createLinked(identity: ExternalIdentity, decision: Extract<ExternalSignInDecision, { kind: 'create' }>): Promise<ExternalSignIn | Superseded> {
    try {
      const user = await this.dataSource.transaction(async (manager) => {
        const created = await this.users.create({ email: decision.email, displayName: decision.displayName }, manager);
        if (!(await this.link({ issuer: identity.issuer, subject: identity.subject, userId: created.id }, manager))) throw new IdentityLinkedMeanwhile();
        return created;
      });
      return { outcome: 'created', user };
    } catch (error) {
      if (error instanceof IdentityLinkedMeanwhile) return { outcome: 'superseded', reason: 'this identity was linked to an account meanwhile' };
      // The email has an account the decision did not see: made meanwhile, or disabled (which `findByEmail` does not show).
      if (error instanceof ApiError && error.code === 'email_taken') return { outcome: 'superseded', reason: `an account with the email ${normalizeEmail(decision.email)} exists but cannot sign in (it is disabled)` };
      throw error;
    }
  }
}
