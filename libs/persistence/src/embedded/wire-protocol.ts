/**
 * The few pieces of the Postgres frontend/backend protocol (v3) the wire multiplexer needs:
 * framing of client messages, ReadyForQuery detection in server output, statement-name rewriting
 * and the handful of messages we build ourselves.
 * Reference: https://www.postgresql.org/docs/current/protocol-message-formats.html
 */

export const PROTOCOL_VERSION_3 = 196_608;
export const SSL_REQUEST_CODE = 80_877_103;
export const GSS_ENCRYPTION_REQUEST_CODE = 80_877_104;
export const CANCEL_REQUEST_CODE = 80_877_102;

/** Postgres refuses messages above 1 GiB; a larger length means the stream is not Postgres. */
const MAXIMUM_MESSAGE_LENGTH = 1024 * 1024 * 1024;

export type FrontendFrame =
  | { readonly kind: 'ssl-request' }
  | { readonly kind: 'gss-encryption-request' }
  | { readonly kind: 'cancel-request' }
  | { readonly kind: 'startup'; readonly protocolVersion: number; readonly bytes: Buffer }
  | { readonly kind: 'message'; readonly type: string; readonly bytes: Buffer };

export class WireProtocolError extends Error {
  readonly isRetryable = false;
}

/**
 * Splits a client's byte stream into frames. Until the startup message, frames have no type byte
 * (int32 length, int32 code); afterwards every message is a type byte plus an int32 length.
 */
export class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private startupDone = false;

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** The next complete frame, or undefined when more bytes are needed. */
  next(): FrontendFrame | undefined {
    return this.startupDone ? this.nextMessage() : this.nextUntypedFrame();
  }

  private nextUntypedFrame(): FrontendFrame | undefined {
    if (this.buffer.length < 8) return undefined;
    const length = this.buffer.readInt32BE(0);
    if (length < 8 || length > 10_000) throw new WireProtocolError(`invalid startup packet length ${length}`);
    if (this.buffer.length < length) return undefined;
    const bytes = this.take(length);
    const code = bytes.readInt32BE(4);
    if (code === SSL_REQUEST_CODE) return { kind: 'ssl-request' };
    if (code === GSS_ENCRYPTION_REQUEST_CODE) return { kind: 'gss-encryption-request' };
    if (code === CANCEL_REQUEST_CODE) return { kind: 'cancel-request' };
    this.startupDone = true;
    return { kind: 'startup', protocolVersion: code, bytes };
  }

  private nextMessage(): FrontendFrame | undefined {
    if (this.buffer.length < 5) return undefined;
    const length = this.buffer.readInt32BE(1);
    if (length < 4 || length > MAXIMUM_MESSAGE_LENGTH) throw new WireProtocolError(`invalid message length ${length}`);
    if (this.buffer.length < length + 1) return undefined;
    const bytes = this.take(length + 1);
    return { kind: 'message', type: String.fromCharCode(bytes[0] ?? 0), bytes };
  }

  private take(length: number): Buffer {
    const bytes = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return bytes;
  }
}

/**
 * Remembers the last six bytes of a server response, enough to see whether it ended with
 * ReadyForQuery ('Z', int32 5, status) and which transaction status that reported.
 */
export class ReadyForQueryTail {
  private tail: Buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): void {
    const combined = Buffer.concat([this.tail, chunk]);
    this.tail = Buffer.from(combined.subarray(Math.max(0, combined.length - 6)));
  }

  /** 'I' idle, 'T' in a transaction block, 'E' in a failed transaction block; undefined if the response did not end with ReadyForQuery. */
  status(): 'I' | 'T' | 'E' | undefined {
    if (this.tail.length < 6 || this.tail[0] !== 0x5a || this.tail.readInt32BE(1) !== 5) return undefined;
    const status = String.fromCharCode(this.tail[5] ?? 0);
    return status === 'I' || status === 'T' || status === 'E' ? status : undefined;
  }
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function cString(value: string): Buffer {
  return Buffer.concat([Buffer.from(value, 'utf8'), Buffer.from([0])]);
}

export function startupMessage(parameters: Readonly<Record<string, string>>): Buffer {
  const pairs = Object.entries(parameters).flatMap(([key, value]) => [cString(key), cString(value)]);
  const body = Buffer.concat([...pairs, Buffer.from([0])]);
  const header = Buffer.alloc(8);
  header.writeInt32BE(body.length + 8, 0);
  header.writeInt32BE(PROTOCOL_VERSION_3, 4);
  return Buffer.concat([header, body]);
}

export function simpleQueryMessage(sql: string): Buffer {
  return message('Q', cString(sql));
}

export function syncMessage(): Buffer {
  return message('S', Buffer.alloc(0));
}

export function closeStatementMessage(name: string): Buffer {
  return message('C', Buffer.concat([Buffer.from('S', 'latin1'), cString(name)]));
}

export function errorResponseMessage(error: { severity: 'ERROR' | 'FATAL'; code: string; message: string }): Buffer {
  const fields = [
    ['S', error.severity],
    ['V', error.severity],
    ['C', error.code],
    ['M', error.message],
  ].map(([field, value]) => Buffer.concat([Buffer.from(field ?? '', 'latin1'), cString(value ?? '')]));
  return message('E', Buffer.concat([...fields, Buffer.from([0])]));
}

/** Where a null-terminated string starting at `offset` ends (index of the NUL byte). */
function cStringEnd(bytes: Buffer, offset: number): number {
  const end = bytes.indexOf(0, offset);
  if (end < 0) throw new WireProtocolError('unterminated string in client message');
  return end;
}

function replaceCString(bytes: Buffer, offset: number, replacement: string): Buffer {
  const end = cStringEnd(bytes, offset);
  const rebuilt = Buffer.concat([bytes.subarray(0, offset), Buffer.from(replacement, 'utf8'), bytes.subarray(end)]);
  rebuilt.writeInt32BE(rebuilt.length - 1, 1);
  return rebuilt;
}

export interface StatementNameRewrite {
  readonly bytes: Buffer;
  /** A named statement this message creates (Parse) or removes (Close), by its client-side name. */
  readonly parsed?: string;
  readonly closed?: string;
}

/**
 * All clients share PGlite's one session, so two pg clients preparing a statement with the same
 * name would collide. Named statements are renamed per client (`prefix` + name); the unnamed
 * statement is left alone because each Parse..Sync group runs atomically.
 */
export function rewriteStatementNames(type: string, bytes: Buffer, prefix: string): StatementNameRewrite {
  const nameOf = (offset: number): string => bytes.toString('utf8', offset, cStringEnd(bytes, offset));
  switch (type) {
    case 'P': {
      const name = nameOf(5);
      return name === '' ? { bytes } : { bytes: replaceCString(bytes, 5, prefix + name), parsed: name };
    }
    case 'B': {
      const statementOffset = cStringEnd(bytes, 5) + 1;
      const name = nameOf(statementOffset);
      return name === '' ? { bytes } : { bytes: replaceCString(bytes, statementOffset, prefix + name) };
    }
    case 'D':
    case 'C': {
      const name = nameOf(6);
      if (bytes[5] !== 0x53 /* 'S' */ || name === '') return { bytes };
      return { bytes: replaceCString(bytes, 6, prefix + name), ...(type === 'C' ? { closed: name } : {}) };
    }
    default:
      return { bytes };
  }
}
