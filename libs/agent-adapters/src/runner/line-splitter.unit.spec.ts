import { createLineSplitter, type OversizedLine } from './line-splitter';

function split(chunks: Array<string | Buffer>, maxLineBytes = 64): { lines: string[]; oversized: OversizedLine[] } {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const splitter = createLineSplitter({ maxLineBytes, previewBytes: 8, onLine: (line) => lines.push(line), onOversizedLine: (line) => oversized.push(line) });
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  splitter.end();
  return { lines, oversized };
}

describe('line splitter', () => {
  it('joins lines split across chunks and strips CRLF', () => {
    expect(split(['{"a":', '1}\r\n{"b"', ':2}\n']).lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('delivers a last line without a newline at end', () => {
    expect(split(['one\ntwo']).lines).toEqual(['one', 'two']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('héllo ✓\n');
    expect(split([bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)]).lines).toEqual(['héllo ✓']);
  });

  it('replaces invalid UTF-8 instead of throwing', () => {
    expect(split([Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a])]).lines).toEqual(['a\uFFFD\uFFFDb']);
  });

  it('drops a line over the cap, reports its size once, and keeps the lines after it', () => {
    const long = 'x'.repeat(50);
    const result = split(['ok\n', long, long, long, '\nafter\n'], 64);
    expect(result.lines).toEqual(['ok', 'after']);
    expect(result.oversized).toEqual([{ bytes: 150, preview: 'xxxxxxxx' }]);
  });

  it('keeps empty lines as empty strings so callers can count them', () => {
    expect(split(['a\n\nb\n']).lines).toEqual(['a', '', 'b']);
  });
});
