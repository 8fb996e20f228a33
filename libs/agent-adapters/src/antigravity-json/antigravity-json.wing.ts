import { plainFamilyWing } from '../family-kit/family-wing.types';
import { createAntigravityBackend } from './antigravity-json.backend';

/**
 * Plain text before 1.1.8, stream JSON from it: the detected version decides. A profile's command
 * has no version we can trust, so it gets the oldest, plain-text form, the safe one.
 */
export const ANTIGRAVITY_JSON_WING = plainFamilyWing((target, builtIn) => (builtIn ? createAntigravityBackend({ cliVersion: target.version }) : createAntigravityBackend()));
