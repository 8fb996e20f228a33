// Deliberately wrong: proves the type tests can fail. Checked by contracts.types.unit.spec.ts, and
// kept out of src so the workspace type check stays green.
import type { z } from 'zod';
import type { Equal, Expect } from '../src/type-equality.helper';
import type { textMessageSchema, usageMessageSchema } from '../src/unified-message.schema';

/** `text` optional where the schema requires it. */
interface DriftedTextMessage {
  type: 'text';
  text?: string;
}

/** A vendor field promoted to the top level. */
interface DriftedUsageMessage {
  type: 'usage';
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export type MismatchedTypeTests = [
  Expect<Equal<z.infer<typeof textMessageSchema>, DriftedTextMessage>>,
  Expect<Equal<z.infer<typeof usageMessageSchema>, DriftedUsageMessage>>,
];
