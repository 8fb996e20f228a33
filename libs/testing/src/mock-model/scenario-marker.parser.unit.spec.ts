import { parseScenarioMarkers, parseSecretWords } from './scenario-marker.parser';

describe('parseScenarioMarkers', () => {
  it('reads every marker with its arguments', () => {
    const prompt = [
      '[[scenario:text]]',
      '[[scenario:tool-write-file /tmp/out.txt hello world]]',
      '[[scenario:tool-command ls -la]]',
      '[[scenario:slow 1500]]',
      '[[scenario:error 429]]',
      '[[scenario:remember kiwi]]',
      '[[scenario:recall]]',
    ].join(' and ');
    expect(parseScenarioMarkers(prompt)).toEqual([
      { name: 'text' },
      { name: 'tool-write-file', path: '/tmp/out.txt', content: 'hello world' },
      { name: 'tool-command', command: 'ls -la' },
      { name: 'slow', milliseconds: 1500 },
      { name: 'error', status: 429 },
      { name: 'remember', word: 'kiwi' },
      { name: 'text' },
    ]);
  });

  it('falls back to defaults for missing or invalid numbers and ignores unknown names', () => {
    expect(parseScenarioMarkers('[[scenario:slow]] [[scenario:error 200]] [[scenario:dance]]')).toEqual([
      { name: 'slow', milliseconds: 30_000 },
      { name: 'error', status: 500 },
    ]);
  });

  it('finds nothing in plain text', () => {
    expect(parseScenarioMarkers('write a file please')).toEqual([]);
  });
});

describe('parseSecretWords', () => {
  it('collects secret and remember markers once each', () => {
    expect(parseSecretWords('[[secret:apple]] [[scenario:remember pear]] [[secret:apple]]')).toEqual(['apple', 'pear']);
  });
});
