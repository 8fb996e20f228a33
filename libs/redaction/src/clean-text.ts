/** U+FFFD, what invalid UTF-8 and lone surrogates become. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NUL = /\u0000/g;
const CLEAN_CANDIDATE = /[\u0000\uD800-\uDFFF]/;

/**
 * Text Postgres can store: NUL bytes removed (neither `text` nor `jsonb` accepts them) and lone
 * surrogates (which have no UTF-8 form) replaced with U+FFFD. Valid surrogate pairs (emoji) stay.
 */
export function cleanText(text: string): string {
  if (!CLEAN_CANDIDATE.test(text)) return text;
  return text.replace(NUL, '').replace(LONE_SURROGATE, REPLACEMENT_CHARACTER);
}

const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decodes bytes as UTF-8, invalid sequences becoming U+FFFD, then cleans the result. */
export function decodeUtf8Lossy(bytes: Uint8Array): string {
  return cleanText(lenientDecoder.decode(bytes));
}

/** `text.slice(start, end)`, each end moved inward where it would split a surrogate pair. */
export function sliceWellFormed(text: string, start: number, end: number): string {
  let from = Math.max(0, start);
  let to = Math.min(text.length, end);
  if (from > 0 && from < text.length && isLowSurrogate(text.charCodeAt(from)) && isHighSurrogate(text.charCodeAt(from - 1))) from += 1;
  if (to > 0 && to < text.length && isHighSurrogate(text.charCodeAt(to - 1)) && isLowSurrogate(text.charCodeAt(to))) to -= 1;
  return from >= to ? '' : text.slice(from, to);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
