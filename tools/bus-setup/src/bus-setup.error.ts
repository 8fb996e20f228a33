/** What can go wrong in a bus-setup command; `usage` is the caller's mistake (exit code 2). */
export const BUS_SETUP_ERROR_CODES = {
  usage: 'the command line is wrong',
  unexpected_config: 'the rendered nats-server config has a part this tool does not know where to put',
  gateway_unreachable: 'the gateway did not answer',
  gateway_refused: 'the gateway refused the request',
} as const;

export type BusSetupErrorCode = keyof typeof BUS_SETUP_ERROR_CODES;

export class BusSetupError extends Error {
  override readonly name = 'BusSetupError';

  constructor(
    readonly code: BusSetupErrorCode,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
