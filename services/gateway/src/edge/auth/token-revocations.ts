import { Injectable } from '@nestjs/common';

type RevocationListener = (tokenId: string) => void;

/**
 * Tells this gateway's live connections at once that a token was revoked here. Revocations made
 * through another replica reach them by the periodic recheck (see `LiveTokenWatch`).
 */
@Injectable()
export class TokenRevocations {
  private readonly listeners = new Set<RevocationListener>();

  /** Returns the unsubscribe function. */
  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(tokenId: string): void {
    for (const listener of this.listeners) listener(tokenId);
  }
}
