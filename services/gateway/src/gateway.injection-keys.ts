export const GATEWAY_CONFIG = Symbol.for('switchyard.gateway.config');
export const GATEWAY_LOGGER = Symbol.for('switchyard.gateway.logger');
