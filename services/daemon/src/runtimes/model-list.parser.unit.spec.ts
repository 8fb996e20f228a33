import { MAX_DISCOVERED_MODELS, MAX_MODEL_ID_LENGTH, parseModelList } from './model-list.parser';

describe('parseModelList', () => {
  it('reads one model id per line, trimmed, in the order printed', () => {
    const output = 'anthropic/claude-sonnet-4-5\n  openai/gpt-5.1-codex  \r\nopenrouter/qwen/qwen3-coder:free\nvertex/claude@20250514\n';
    expect(parseModelList(output)).toEqual({
      models: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.1-codex', 'openrouter/qwen/qwen3-coder:free', 'vertex/claude@20250514'],
      skippedLines: 0,
      overLimit: 0,
    });
  });

  it('ignores blank lines and keeps each id once, where it first appeared', () => {
    expect(parseModelList('\n\nb/two\n   \na/one\nb/two\na/one\n')).toEqual({ models: ['b/two', 'a/one'], skippedLines: 0, overLimit: 0 });
  });

  it('counts lines that are not a model id instead of keeping them', () => {
    const output = ['Available models:', 'a/one', 'WARN cache is stale', '\u001b[32mb/two\u001b[0m', 'c/three', `x/${'m'.repeat(MAX_MODEL_ID_LENGTH)}`, 'd/fünf'].join('\n');
    expect(parseModelList(output)).toEqual({ models: ['a/one', 'c/three'], skippedLines: 5, overLimit: 0 });
  });

  it('keeps at most the limit of distinct ids and counts the rest', () => {
    const ids = Array.from({ length: MAX_DISCOVERED_MODELS + 3 }, (_, index) => `provider/model-${index}`);
    const parsed = parseModelList([...ids, ids[0]].join('\n'));
    expect(parsed.models).toEqual(ids.slice(0, MAX_DISCOVERED_MODELS));
    expect(parsed.overLimit).toBe(3);
    expect(parseModelList('a\nb\nc', 2)).toEqual({ models: ['a', 'b'], skippedLines: 0, overLimit: 1 });
  });

  it('finds nothing in empty output', () => {
    expect(parseModelList('')).toEqual({ models: [], skippedLines: 0, overLimit: 0 });
    expect(parseModelList('\n  \n')).toEqual({ models: [], skippedLines: 0, overLimit: 0 });
  });
});
