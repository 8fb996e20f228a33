import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { MessagingNotReadyError, describeCause } from '../errors/messaging.errors';

const CLAIMS_UPDATE_SUBJECT = '$SYS.REQ.CLAIMS.UPDATE';

interface ClaimsUpdateReply {
  readonly data?: { readonly code?: number; readonly message?: string };
  readonly error?: { readonly code?: number; readonly description?: string };
}

/**
 * Pushes an account JWT to the servers over a system-account connection. The full resolver keeps
 * it, and a revocation in it disconnects the revoked users at once.
 */
export async function pushAccountClaims(systemConnection: MessagingConnection, accountJwt: string, options: { timeoutMs?: number } = {}): Promise<void> {
  let reply: ClaimsUpdateReply;
  try {
    // System subjects are outside any namespace.
    const message = await natsClients(systemConnection).nats.request(CLAIMS_UPDATE_SUBJECT, accountJwt, { timeout: options.timeoutMs ?? 5_000 });
    reply = JSON.parse(message.string()) as ClaimsUpdateReply;
  } catch (error) {
    throw new MessagingNotReadyError(`account claims update was not answered: ${describeCause(error)}`, error);
  }
  if (reply.error || reply.data?.code !== 200) {
    throw new MessagingNotReadyError(`account claims update refused: ${reply.error?.description ?? reply.data?.message ?? JSON.stringify(reply)}`);
  }
}
