/** The transcript service's validated configuration, for injection. */
export const TRANSCRIPT_CONFIG = Symbol('TRANSCRIPT_CONFIG');
/** The service's JSON logger. */
export const TRANSCRIPT_LOGGER = Symbol('TRANSCRIPT_LOGGER');
