/** The queue's validated configuration, for injection. */
export const QUEUE_CONFIG = Symbol('QUEUE_CONFIG');
/** The service's JSON logger. */
export const QUEUE_LOGGER = Symbol('QUEUE_LOGGER');
