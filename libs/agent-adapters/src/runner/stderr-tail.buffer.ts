export interface StderrTailOptions {
  readonly maxBytes?: number;
  readonly maxLines?: number;
}

export interface StderrTail {
  push(chunk: Buffer): void;
  /** The kept tail, decoded; a cut head is marked so nobody mistakes it for the whole stream. */
  read(): string;
}

export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;
export const DEFAULT_STDERR_TAIL_LINES = 200;

/** Keeps the last bytes of stderr; a CLI that floods stderr never grows our memory. */
export function createStderrTail(options: StderrTailOptions = {}): StderrTail {
  const maxBytes = options.maxBytes ?? DEFAULT_STDERR_TAIL_BYTES;
  const maxLines = options.maxLines ?? DEFAULT_STDERR_TAIL_LINES;
  let chunks: Buffer[] = [];
  let keptBytes = 0;
  let droppedBytes = 0;

  return {
    push(chunk: Buffer): void {
      if (chunk.length >= maxBytes) {
        droppedBytes += keptBytes + chunk.length - maxBytes;
        chunks = [Buffer.from(chunk.subarray(chunk.length - maxBytes))];
        keptBytes = maxBytes;
        return;
      }
      chunks.push(chunk);
      keptBytes += chunk.length;
      while (keptBytes > maxBytes) {
        const head = chunks[0] as Buffer;
        const excess = keptBytes - maxBytes;
        if (head.length <= excess) {
          chunks.shift();
          keptBytes -= head.length;
          droppedBytes += head.length;
        } else {
          // Copy so the big chunk the slice came from can be collected.
          chunks[0] = Buffer.from(head.subarray(excess));
          keptBytes -= excess;
          droppedBytes += excess;
        }
      }
    },
    read(): string {
      let lines = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)).split('\n');
      let truncated = droppedBytes > 0;
      // The first line was cut mid-way, so it would only mislead.
      if (truncated && lines.length > 1) lines = lines.slice(1);
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      if (lines.length > maxLines) {
        lines = lines.slice(lines.length - maxLines);
        truncated = true;
      }
      return (truncated ? '[stderr truncated, showing its end]\n' : '') + lines.join('\n');
    },
  };
}
