import { createStderrTail } from './stderr-tail.buffer';

describe('stderr tail', () => {
  it('keeps everything while under the bounds', () => {
    const tail = createStderrTail({ maxBytes: 100, maxLines: 10 });
    tail.push(Buffer.from('one\ntw'));
    tail.push(Buffer.from('o\n'));
    expect(tail.read()).toBe('one\ntwo');
  });

  it('keeps only the last bytes and drops the cut first line', () => {
    const tail = createStderrTail({ maxBytes: 10, maxLines: 10 });
    for (let index = 0; index < 100; index += 1) tail.push(Buffer.from(`line-${index}\n`));
    expect(tail.read()).toBe('[stderr truncated, showing its end]\nline-99');
  });

  it('keeps only the last lines', () => {
    const tail = createStderrTail({ maxBytes: 1000, maxLines: 2 });
    tail.push(Buffer.from('a\nb\nc\nd\n'));
    expect(tail.read()).toBe('[stderr truncated, showing its end]\nc\nd');
  });

  it('bounds a single chunk larger than the cap', () => {
    const tail = createStderrTail({ maxBytes: 8, maxLines: 10 });
    tail.push(Buffer.from(`${'x'.repeat(100)}\nlast`));
    expect(tail.read()).toBe('[stderr truncated, showing its end]\nlast');
  });
});
