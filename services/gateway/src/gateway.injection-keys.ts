export const GATEWAY_CONFIG = Symbol.for('switchyard.gateway.config');
export const GATEWAY_LOGGER = Symbol.for('switchyard.gateway.logger');
/** Seals agents' env and MCP secret values at rest (`GATEWAY_SECRET_KEYS`, or random per process). */
export const GATEWAY_SECRET_KEYRING = Symbol.for('switchyard.gateway.secret-keyring');
