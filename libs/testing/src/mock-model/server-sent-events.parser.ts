/** One parsed server-sent event: its `event:` name when given and its `data:` lines joined. */
export interface ParsedServerSentEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Incremental SSE parser for tests (WHATWG rules that matter here: blank line ends an event,
 * `data:` lines join with newlines, comments and `id:`/`retry:` ignored, CRLF accepted).
 */
export function createServerSentEventParser(): { push(text: string): ParsedServerSentEvent[]; end(): ParsedServerSentEvent[] } {
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  const takeLine = (line: string, output: ParsedServerSentEvent[]): void => {
    if (line === '') {
      if (data.length > 0) output.push({ event, data: data.join('\n') });
      event = undefined;
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    if (field === 'data') data.push(value);
  };
  return {
    push(text) {
      buffer += text;
      const output: ParsedServerSentEvent[] = [];
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = lines.pop() ?? '';
      for (const line of lines) takeLine(line, output);
      return output;
    },
    end() {
      const output: ParsedServerSentEvent[] = [];
      if (buffer !== '') takeLine(buffer, output);
      buffer = '';
      takeLine('', output);
      return output;
    },
  };
}

export function parseServerSentEvents(text: string): ParsedServerSentEvent[] {
  const parser = createServerSentEventParser();
  return [...parser.push(text), ...parser.end()];
}

/** Events of a fetch response body as they arrive; stop iterating to stop reading. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ParsedServerSentEvent> {
  const parser = createServerSentEventParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    reader.releaseLock();
  }
}
