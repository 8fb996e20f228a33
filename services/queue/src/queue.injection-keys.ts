/** The queue's validated configuration, for injection. */
export const QUEUE_CONFIG = Symbol('QUEUE_CONFIG');
/** Key of the task-scoped tokens (configured, or random per process). */
export const TASK_TOKEN_SECRET = Symbol('TASK_TOKEN_SECRET');
/** The service's JSON logger. */
export const QUEUE_LOGGER = Symbol('QUEUE_LOGGER');
/** Seals the agents' secret values at rest (`QUEUE_SECRET_KEYS`, or random per process). */
export const SECRET_KEYRING = Symbol('SECRET_KEYRING');
