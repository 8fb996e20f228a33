import { connectionStatus, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';

/**
 * Calls `onReconnect` each time the daemon's NATS link comes back after a disconnect (a laptop lid,
 * a Wi-Fi change, a VPN reconnect), until the connection closes. A hook that throws is logged, and
 * the watch goes on.
 */
export function watchBusReconnects(options: { readonly connection: MessagingConnection; readonly logger: JsonLogger; readonly onReconnect: () => Promise<void> | void }): void {
  const { connection, logger } = options;
  const watch = async (): Promise<void> => {
    for await (const status of connectionStatus(connection)) {
      if (status.type !== 'reconnect') continue;
      try {
        await options.onReconnect();
      } catch (error) {
        logger.error({ err: error, event: 'bus_reconnect_hook_failed' }, 'a reconnect hook failed');
      }
    }
  };
  watch().catch((error: unknown) => logger.warn({ err: error }, 'the bus reconnect watch ended'));
}
