/** Above this many characters a document still not closed is given up on (a runaway, not a reply). */
const MAXIMUM_DOCUMENT_CHARACTERS = 64 * 1024 * 1024;

export type AssembledLine = (
  | { readonly kind: 'pending' }
  | { readonly kind: 'document'; readonly value: unknown }
  | { readonly kind: 'unreadable'; readonly reason: string; readonly text: string }
) & {
  /** The start of a document this line cut short (a truncated one), to be reported, not dropped. */
  readonly abandoned?: string;
};

/**
 * Joins stdout lines into JSON documents. OpenClaw pretty-prints its one reply document with a
 * two-space indent, so only its last line starts with the closing brace unindented; that is where
 * a parse is tried. A compact one-line document is read as it comes.
 */
export function createOpenClawDocumentAssembler(): (line: string) => AssembledLine {
  let pending: string[] = [];
  let pendingCharacters = 0;

  const reset = (): void => {
    pending = [];
    pendingCharacters = 0;
  };
  const parse = (text: string): { value: unknown } | undefined => {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  };

  const assemble = (line: string): AssembledLine => {
    if (pending.length === 0) {
      const trimmed = line.trim();
      if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { kind: 'unreadable', reason: 'text outside a JSON document', text: line };
      const whole = parse(trimmed);
      if (whole) return { kind: 'document', value: whole.value };
    }
    pending.push(line);
    pendingCharacters += line.length + 1;
    if (line.startsWith('}') || line.startsWith(']')) {
      const document = parse(pending.join('\n'));
      if (document) {
        reset();
        return { kind: 'document', value: document.value };
      }
    }
    if (pendingCharacters > MAXIMUM_DOCUMENT_CHARACTERS) {
      const text = pending.slice(0, 5).join('\n');
      reset();
      return { kind: 'unreadable', reason: 'JSON document over the size cap', text };
    }
    return { kind: 'pending' };
  };

  return (line: string): AssembledLine => {
    // Only a pretty-printed document's first and last lines are unindented: a line opening a new
    // document while one is pending means the pending one was cut short.
    if (pending.length === 0 || !(line.startsWith('{') || line.startsWith('['))) return assemble(line);
    const abandoned = pending.slice(0, 5).join('\n');
    reset();
    return { ...assemble(line), abandoned };
  };
}
