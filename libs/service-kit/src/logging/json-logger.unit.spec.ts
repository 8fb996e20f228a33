import { Writable } from 'node:stream';
import { createJsonLogger, NestJsonLogger } from './json-logger';

function captureLines(): { destination: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { destination, lines };
}

describe('JSON logs', () => {
  it('writes one JSON object per line with service, level label and time', () => {
    const { destination, lines } = captureLines();
    const logger = createJsonLogger({ service: 'queue', level: 'info', destination });
    logger.info({ taskId: 't-1' }, 'claimed');
    logger.debug('hidden below the level');
    expect(lines()).toEqual([expect.objectContaining({ service: 'queue', level: 'info', taskId: 't-1', msg: 'claimed', time: expect.any(String) })]);
  });

  it('redacts password and token fields', () => {
    const { destination, lines } = captureLines();
    const logger = createJsonLogger({ service: 'gateway', level: 'info', destination });
    logger.info({ password: 'p', request: { token: 't', authorization: 'Bearer x' } }, 'login');
    const [line] = lines();
    expect(line?.['password']).toBe('[redacted]');
    expect(line?.['request']).toEqual({ token: '[redacted]', authorization: '[redacted]' });
  });

  it('routes NestJS log calls with their context name and errors', () => {
    const { destination, lines } = captureLines();
    const nestLogger = new NestJsonLogger(createJsonLogger({ service: 'gateway', level: 'info', destination }));
    nestLogger.log('Nest application successfully started', 'NestApplication');
    nestLogger.error(new Error('boom'), 'Boot');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 'info', context: 'NestApplication', msg: 'Nest application successfully started' }),
      expect.objectContaining({ level: 'error', context: 'Boot', msg: 'boom', err: expect.objectContaining({ message: 'boom' }) }),
    ]);
  });
});
