/** The daemon's validated configuration, for injection. */
export const DAEMON_CONFIG = Symbol('DAEMON_CONFIG');
/** The daemon's JSON logger. */
export const DAEMON_LOGGER = Symbol('DAEMON_LOGGER');
