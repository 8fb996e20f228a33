/** The queue's validated configuration, for injection. */
export const QUEUE_CONFIG = Symbol('QUEUE_CONFIG');
