import { JetStreamApiError } from '@nats-io/jetstream';
import { MESSAGING_ERROR_CODES } from '../errors/messaging.errors';
import { ClosedConnectionError, RequestError, TimeoutError } from '../nats-core/nats-core.bridge';
import { classifyPublishError, encodePayload } from './jetstream.publisher';

describe('classifyPublishError', () => {
  it('retries timeouts and missing responders', () => {
    expect(classifyPublishError(new TimeoutError())).toEqual({ code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: true });
    expect(classifyPublishError(new RequestError('no responders'))).toMatchObject({ isRetryable: true });
    expect(classifyPublishError(new Error('jetstream is not enabled', { cause: new RequestError('503') }))).toMatchObject({
      isRetryable: true,
    });
  });

  it('does not retry on a closed connection', () => {
    expect(classifyPublishError(new ClosedConnectionError())).toMatchObject({ isRetryable: false });
  });

  it('reports wrong-last-sequence as its own non-retryable code', () => {
    const error = new JetStreamApiError({ code: 400, err_code: 10071, description: 'wrong last sequence: 1' });

    expect(classifyPublishError(error)).toEqual({ code: MESSAGING_ERROR_CODES.wrongLastSequence, isRetryable: false });
  });

  it('retries JetStream 503s but not other API errors', () => {
    expect(classifyPublishError(new JetStreamApiError({ code: 503, err_code: 10008, description: 'unavailable' }))).toMatchObject({
      isRetryable: true,
    });
    expect(classifyPublishError(new JetStreamApiError({ code: 400, err_code: 10060, description: 'expected stream' }))).toEqual({
      code: MESSAGING_ERROR_CODES.publishRejected,
      isRetryable: false,
    });
  });
});

describe('encodePayload', () => {
  it('sends bytes as they are and anything else as JSON', () => {
    const bytes = new Uint8Array([1, 2, 3]);

    expect(encodePayload(bytes, undefined)).toBe(bytes);
    expect(new TextDecoder().decode(encodePayload({ a: 1 }, undefined))).toBe('{"a":1}');
  });
});
