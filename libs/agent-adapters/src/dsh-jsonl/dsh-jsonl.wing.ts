import { plainFamilyWing } from '../family-kit/family-wing.types';
import { createDshBackend } from './dsh-jsonl.backend';

export const DSH_JSONL_WING = plainFamilyWing(() => createDshBackend());
