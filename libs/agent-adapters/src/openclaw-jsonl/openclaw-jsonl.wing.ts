import { plainFamilyWing } from '../family-kit/family-wing.types';
import { createOpenClawJsonlBackend } from './openclaw-jsonl.backend';

export const OPENCLAW_JSONL_WING = plainFamilyWing(() => createOpenClawJsonlBackend());
