import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CLASSIFIABLE_ERROR_CODES, type FailureClassifier } from './failure-evidence';
import { readFailureFixture, RECORDED_FAILURES, type RecordedFailureName } from './failure-recording.spec-helper';

/** The recorded failures of a family (`<family>/__fixtures__/failures/<cli>.<scenario>.json`), as `[cli, scenario]`. */
export function recordedFailures(family: string): Array<[string, RecordedFailureName]> {
  const directory = path.join(__dirname, '..', family, '__fixtures__', 'failures');
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.replace(/\.json$/, '').split('.') as [string, string])
    .filter((entry): entry is [string, RecordedFailureName] => entry[1] in RECORDED_FAILURES)
    .sort();
}

/**
 * Given what a real CLI printed for a provider failure (recorded), when the family's classifier
 * reads the evidence the adapter kept, then the reason is the one the mock model scripted.
 */
export function describeRecordedFailureTable(options: {
  readonly family: string;
  readonly classify: FailureClassifier;
  readonly clis: readonly string[];
  /**
   * Known gaps (protocol-families.md), keyed `<cli>.<scenario>`: `notRecorded`, the CLI retries it
   * on its own past any test budget; `unclassified`, the code the failure keeps (nothing to read).
   */
  readonly gaps?: { readonly notRecorded?: readonly string[]; readonly unclassified?: Readonly<Record<string, string>> };
}): void {
  const recorded = recordedFailures(options.family);
  it('has a recording of every scripted failure for each CLI it names, but its known gaps', () => {
    for (const cli of options.clis) {
      const expected = (Object.keys(RECORDED_FAILURES) as RecordedFailureName[]).filter((scenario) => !options.gaps?.notRecorded?.includes(`${cli}.${scenario}`));
      expect([cli, recorded.filter(([name]) => name === cli).map(([, scenario]) => scenario).sort()]).toEqual([cli, expected.sort()]);
    }
  });

  it.each(recorded)('given %s printing a provider %s, classifies it so', (cli, scenario) => {
    const recording = readFailureFixture(options.family, cli, scenario);
    expect(CLASSIFIABLE_ERROR_CODES.has(recording.evidence.code)).toBe(true);
    const expected = options.gaps?.unclassified?.[`${cli}.${scenario}`] ?? scenario;
    expect(options.classify(recording.evidence)?.code ?? recording.evidence.code).toBe(expected);
  });
}
