/** What the splitter reports instead of a line longer than the cap. */
export interface OversizedLine {
  /** Total length of the dropped line in bytes. */
  readonly bytes: number;
  /** Its first bytes, decoded, for the diagnostic event. */
  readonly preview: string;
}

export interface LineSplitterOptions {
  /** Longest line kept; a longer one is dropped while streaming, never buffered whole. */
  readonly maxLineBytes: number;
  readonly previewBytes?: number;
  readonly onLine: (line: string) => void;
  readonly onOversizedLine: (line: OversizedLine) => void;
}

export interface LineSplitter {
  push(chunk: Buffer): void;
  /** Delivers a final line that had no newline. */
  end(): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a CLI's stdout into lines. Bytes are kept until the newline so a multi-byte character
 * split across chunks decodes whole; invalid UTF-8 becomes U+FFFD rather than an exception.
 */
export function createLineSplitter(options: LineSplitterOptions): LineSplitter {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const previewBytes = options.previewBytes ?? 512;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized: { bytes: number; preview: Buffer } | undefined;

  const append = (piece: Buffer): void => {
    if (oversized) {
      oversized.bytes += piece.length;
      return;
    }
    if (pendingBytes + piece.length > options.maxLineBytes) {
      const head = Buffer.concat([...pending, piece]);
      oversized = { bytes: head.length, preview: head.subarray(0, previewBytes) };
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(piece);
    pendingBytes += piece.length;
  };

  const finishLine = (): void => {
    if (oversized) {
      options.onOversizedLine({ bytes: oversized.bytes, preview: decoder.decode(oversized.preview) });
      oversized = undefined;
      return;
    }
    let line = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    options.onLine(decoder.decode(line));
  };

  return {
    push(chunk: Buffer): void {
      let start = 0;
      for (let index = chunk.indexOf(NEWLINE, start); index !== -1; index = chunk.indexOf(NEWLINE, start)) {
        append(chunk.subarray(start, index));
        finishLine();
        start = index + 1;
      }
      if (start < chunk.length) append(chunk.subarray(start));
    },
    end(): void {
      if (pendingBytes > 0 || oversized) finishLine();
    },
  };
}
