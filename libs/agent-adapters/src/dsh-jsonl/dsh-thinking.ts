import { unsupportedThinking } from '../backend/thinking-level';

/** DSH's execute frame (protocol 1) carries a model and a profile, no reasoning setting. */
export const dshThinking = unsupportedThinking('DSH protocol 1 has no reasoning setting in its execute frame');
