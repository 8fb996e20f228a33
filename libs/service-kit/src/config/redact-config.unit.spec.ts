import { redactConfig } from './redact-config';

describe('redactConfig', () => {
  it('masks passwords inside URLs and values of sensitive keys, keeps the rest', () => {
    const safe = redactConfig({
      DATABASE_URL: 'postgres://app:s3cret@db:5432/switchyard',
      NATS_URL: 'nats://127.0.0.1:4222',
      API_TOKEN: 'tok_123',
      PORT: 8080,
    });
    expect(safe).toEqual({
      DATABASE_URL: 'postgres://app:***@db:5432/switchyard',
      NATS_URL: 'nats://127.0.0.1:4222',
      API_TOKEN: '[redacted]',
      PORT: 8080,
    });
  });
});
