/** The session-resume service's validated configuration, for injection. */
export const SESSION_RESUME_CONFIG = Symbol('SESSION_RESUME_CONFIG');
/** The service's JSON logger. */
export const SESSION_RESUME_LOGGER = Symbol('SESSION_RESUME_LOGGER');
