// The one place the messaging layer takes nats.js core values and types from, so a change of
// client package touches a single file.
import type { MsgHdrs } from '@nats-io/transport-node';

export {
  connect,
  credsAuthenticator,
  headers,
  nanos,
  millis,
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
export type { ConnectionOptions, Msg, MsgHdrs, NatsConnection, Status, Subscription } from '@nats-io/transport-node';

/** A JetStream message's headers, typed as core NATS headers. */
export function messageHeaders(message: { readonly headers: unknown }): MsgHdrs | undefined {
  return message.headers as MsgHdrs | undefined;
}
