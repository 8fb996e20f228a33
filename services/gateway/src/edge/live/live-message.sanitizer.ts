import type { AgentMessage } from '@switchyard/contracts';
import { createMessageSanitizer } from '@switchyard/redaction';

/**
 * The last cleaning before a live message leaves the gateway: secret patterns redacted, NUL bytes
 * and broken text repaired, long tool output cut to a preview, as the projector does for the view.
 * (The daemon already redacted the exact secret values it gave the task.)
 */
export const sanitizeLiveMessage: (message: AgentMessage) => AgentMessage = createMessageSanitizer({});
