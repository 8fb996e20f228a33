import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, truncateOutput } from './truncate-output';

describe('truncateOutput', () => {
  it('keeps output within the limit as it is', () => {
    expect(truncateOutput('short', 10)).toEqual({ output: 'short', truncated: false });
    expect(truncateOutput('x'.repeat(DEFAULT_MAX_TOOL_OUTPUT_CHARS), DEFAULT_MAX_TOOL_OUTPUT_CHARS).truncated).toBe(false);
  });

  it('keeps head and tail of a long output, says how much was left out, and stays within the limit', () => {
    // Given an output with a recognisable start and end
    const output = `START${'.'.repeat(10_000)}END`;
    // When cut to 1 000 characters
    const { output: preview, truncated } = truncateOutput(output, 1_000);
    // Then the preview holds both ends and a note
    expect(truncated).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(1_000);
    expect(preview.startsWith('START')).toBe(true);
    expect(preview.endsWith('END')).toBe(true);
    expect(preview).toMatch(/\[\.\.\. \d+ characters truncated \.\.\.\]/);
  });

  it('is stable: a preview truncated again is unchanged', () => {
    const once = truncateOutput('y'.repeat(5_000), 700).output;
    expect(truncateOutput(once, 700)).toEqual({ output: once, truncated: false });
  });

  it('does not split an emoji and handles tiny limits', () => {
    const output = '\u{1F600}'.repeat(1_000);
    const { output: preview } = truncateOutput(output, 301);
    expect(Buffer.from(preview, 'utf8').toString('utf8')).toBe(preview);
    expect(truncateOutput('abcdef', 3)).toEqual({ output: 'abc', truncated: true });
  });
});
