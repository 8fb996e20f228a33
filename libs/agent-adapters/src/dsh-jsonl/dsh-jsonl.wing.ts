import { plainFamilyWing } from '../runtime-wing/family-wing.types';
import { createDshBackend } from './dsh-jsonl.backend';

export const DSH_JSONL_WING = plainFamilyWing(() => createDshBackend());
