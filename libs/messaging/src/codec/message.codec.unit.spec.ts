import { z } from 'zod';
import { DecodeError } from '../errors/messaging.errors';
import { decodeReply, encodeReply } from '../request-reply/reply.envelope';
import { toReplyError } from '../request-reply/request-reply';
import { ReplyError } from '../request-reply/reply.envelope';
import { decodeJsonText, jsonCodec, zodCodec } from './message.codec';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('codecs', () => {
  it('round-trips JSON', () => {
    const codec = jsonCodec<{ a: number }>();

    expect(codec.decode(codec.encode({ a: 1 }))).toEqual({ a: 1 });
  });

  it('reports invalid JSON and invalid UTF-8 as DecodeError', () => {
    expect(() => jsonCodec().decode(encode('{oops'))).toThrow(DecodeError);
    expect(() => jsonCodec().decode(new Uint8Array([0xff, 0xfe]))).toThrow(DecodeError);
  });

  it('validates with a zod schema', () => {
    const codec = zodCodec(z.object({ taskId: z.string() }));

    expect(codec.decode(encode('{"taskId":"t1","extra":true}'))).toEqual({ taskId: 't1' });
    expect(() => codec.decode(encode('{"taskId":1}'))).toThrow(DecodeError);
  });

  it('decodes JSON text with a schema, and refuses an empty text, non-JSON and a mismatch as DecodeError', () => {
    const schema = z.object({ taskId: z.string() });

    expect(decodeJsonText('{"taskId":"t1"}', schema)).toEqual({ taskId: 't1' });
    expect(() => decodeJsonText('', schema)).toThrow(/not valid JSON/);
    expect(() => decodeJsonText('not json {', schema)).toThrow(DecodeError);
    expect(() => decodeJsonText('{"taskId":1}', schema)).toThrow(/does not match its schema/);
  });
});

describe('reply envelopes', () => {
  it('round-trips results and errors', () => {
    expect(decodeReply(encodeReply({ ok: true, result: { a: 1 } }))).toEqual({ ok: true, result: { a: 1 } });
    expect(decodeReply(encodeReply({ ok: true, result: null, alreadyApplied: true }))).toEqual({ ok: true, result: null, alreadyApplied: true });
    expect(decodeReply(encodeReply({ ok: false, error: { code: 'internal', message: 'internal error', retryable: true } }))).toEqual({
      ok: false,
      error: { code: 'internal', message: 'internal error', retryable: true },
    });
  });

  it('rejects replies that are not envelopes', () => {
    expect(() => decodeReply(encode('{"result":1}'))).toThrow(DecodeError);
    expect(() => decodeReply(encode('{"ok":false,"error":{"code":"made_up","message":"x","retryable":false}}'))).toThrow(DecodeError);
    expect(() => decodeReply(encode('nope'))).toThrow(DecodeError);
  });

  it('maps handler errors to reply codes without leaking internal detail', () => {
    expect(toReplyError(new ReplyError('not_found', 'no such task'))).toEqual({ code: 'not_found', message: 'no such task', retryable: false });
    expect(toReplyError(new ReplyError('unavailable', 'database restarting'))).toEqual({ code: 'unavailable', message: 'database restarting', retryable: true });
    expect(toReplyError(new DecodeError('request is not valid JSON'))).toEqual({ code: 'invalid_request', message: 'request is not valid JSON', retryable: false });
    expect(toReplyError(new Error('password=hunter2'))).toEqual({ code: 'internal', message: 'internal error', retryable: true });
  });
});
