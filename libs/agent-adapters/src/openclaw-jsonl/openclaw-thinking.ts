import { unsupportedThinking } from '../backend/thinking-level';

/** Not delivered: no OpenClaw CLI is installed here to prove what `openclaw agent` would send. */
export const openClawThinking = unsupportedThinking('no thinking setting is proven for the OpenClaw CLI');
