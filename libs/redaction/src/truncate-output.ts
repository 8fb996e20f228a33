import { sliceWellFormed } from './clean-text';

/**
 * Default cap on a tool result's `output`, in UTF-16 code units (JavaScript string length): 64 KiB
 * of characters, at most 192 KiB of UTF-8, well under the 1 MiB message limit of TASK_EVENTS.
 */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 64 * 1024;

// Room kept for the note between head and tail; the note is far shorter.
const NOTE_RESERVE = 64;
const TAIL_SHARE = 0.25;

export interface TruncatedOutput {
  readonly output: string;
  readonly truncated: boolean;
}

/**
 * Keeps an over-long output as a preview of at most `maxChars`: the head (three quarters) and the
 * tail (where errors and summaries usually are) around a note saying how much was left out.
 * Deterministic, and a preview passes through unchanged, so applying it twice changes nothing.
 */
export function truncateOutput(output: string, maxChars: number): TruncatedOutput {
  if (output.length <= maxChars) return { output, truncated: false };
  if (maxChars < 4 * NOTE_RESERVE) return { output: sliceWellFormed(output, 0, maxChars), truncated: true };
  const budget = maxChars - NOTE_RESERVE;
  const tailLength = Math.floor(budget * TAIL_SHARE);
  const head = sliceWellFormed(output, 0, budget - tailLength);
  const tail = sliceWellFormed(output, output.length - tailLength, output.length);
  const omitted = output.length - head.length - tail.length;
  return { output: `${head}\n\n[... ${omitted} characters truncated ...]\n\n${tail}`, truncated: true };
}
