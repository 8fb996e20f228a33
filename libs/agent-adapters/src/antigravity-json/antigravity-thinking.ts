import { unsupportedThinking } from '../backend/thinking-level';

/** Antigravity's print mode (`agy -p`) has no reasoning flag; it uses the model's own setting. */
export const antigravityThinking = unsupportedThinking('Antigravity print mode has no reasoning setting');
