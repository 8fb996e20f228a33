import type { JsonLogger } from '@switchyard/service-kit';
import type { LiveCredential } from '../auth/caller.authenticator';
import type { ApiTokenVerifier } from '../auth/api-token.verifier';
import type { SessionsRepository } from '../../workspace/people/sessions.repository';
import type { TokenRevocations } from '../auth/token-revocations';
import type { LiveConnection } from './live.connection';

export interface LiveTokenWatchOptions {
  /** The open connections, at the moment of asking. */
  readonly connections: () => Iterable<LiveConnection>;
  readonly verifier: ApiTokenVerifier;
  readonly sessions: Pick<SessionsRepository, 'liveSessionIds'>;
  readonly revocations: TokenRevocations;
  readonly recheckMs: number;
  readonly logger: JsonLogger;
}

/**
 * Closes live connections whose token was revoked: at once when the revocation happened on this
 * gateway (the in-process signal), else at the next recheck, every `recheckMs`, one query for the
 * tokens of every open connection, so a revocation through another replica closes them as well.
 * A recheck that fails (the database away) logs and keeps the connections open until the next
 * one: no token can be verified meanwhile, over REST either.
 */
export class LiveTokenWatch {
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  private checking = false;

  constructor(private readonly options: LiveTokenWatchOptions) {}

  start(): void {
    this.stopListening = this.options.revocations.onRevoked((tokenId) => {
      for (const connection of this.options.connections()) {
        const credential = connection.credential;
        if (credential?.kind === 'api_token' && credential.tokenId === tokenId) this.close(connection, 'revoked on this gateway');
      }
    });
    this.timer = setInterval(() => void this.recheck(), this.options.recheckMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopListening?.();
  }

  private async recheck(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const authenticated = [...this.options.connections()].filter((connection) => connection.credential !== undefined);
      if (authenticated.length === 0) return;
      const keyOf = (credential: LiveCredential): string => (credential.kind === 'api_token' ? `token:${credential.tokenHash}` : `session:${credential.sessionId}`);
      const credentials = authenticated.map((connection) => connection.credential!);
      const tokenHashes = credentials.flatMap((credential) => (credential.kind === 'api_token' ? [credential.tokenHash] : []));
      const sessionIds = credentials.flatMap((credential) => (credential.kind === 'session' ? [credential.sessionId] : []));
      const [activeTokens, liveSessions] = await Promise.all([this.options.verifier.activeTokenHashes(tokenHashes), this.options.sessions.liveSessionIds(sessionIds)]);
      const live = new Set([...[...activeTokens].map((hash) => `token:${hash}`), ...[...liveSessions].map((id) => `session:${id}`)]);
      const checked = new Set(credentials.map(keyOf));
      for (const connection of authenticated) {
        // A connection that authenticated anew meanwhile (another auth frame) was not part of this check.
        const credential = connection.credential;
        if (credential !== undefined && checked.has(keyOf(credential)) && !live.has(keyOf(credential))) this.close(connection, 'revoked (recheck)');
      }
    } catch (error) {
      this.options.logger.warn({ event: 'live_token_recheck_failed', err: error }, 'live token recheck failed; connections stay open until the next one');
    } finally {
      this.checking = false;
    }
  }

  private close(connection: LiveConnection, how: string): void {
    const credential = connection.credential;
    this.options.logger.info({ event: 'live_token_revoked', credential: credential?.kind === 'api_token' ? { tokenId: credential.tokenId } : credential, how }, 'live connection closed: its token was revoked');
    connection.revoke();
  }
}
