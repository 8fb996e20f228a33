import { FAULT_FAMILY_IDS } from './fault-families';
import { MALFORMED_OUTPUT_CASES, type FaultCase } from './malformed-output.cases';
import { faultCaseRows, judgeCaseInEveryFamily } from './malformed-output.spec-helper';

const ROWS = faultCaseRows();
const tableOf = (cases: readonly FaultCase[]): Array<readonly [string, FaultCase]> => cases.map((faultCase) => [faultCase.id, faultCase] as const);

async function expectEveryFamilyToEndTruthfully(_id: string, faultCase: FaultCase): Promise<void> {
  const { actual, expected } = await judgeCaseInEveryFamily(ROWS.filter((row) => row.faultCase === faultCase));
  expect(actual).toEqual(expected);
}

/**
 * The malformed-output corpus through every protocol family's real backend, a scriptable fake CLI
 * standing in for the vendor's: every run ends (a watchdog at the latest), truthfully (`completed`
 * only where the run really recovered, the bad output then surfaced as a message; otherwise a code
 * of `AGENT_RUN_ERROR_CODES` and a message), with only contract-valid messages and no process left.
 * One test per case runs it through all families at once; the verdicts are compared by family.
 */
describe('malformed CLI output through every protocol family', () => {
  it('has a corpus of at least 30 cases, each run through at least 7 of the 10 families', () => {
    expect(MALFORMED_OUTPUT_CASES.length).toBeGreaterThanOrEqual(30);
    const thinCases = MALFORMED_OUTPUT_CASES.filter((faultCase) => ROWS.filter((row) => row.faultCase === faultCase).length < FAULT_FAMILY_IDS.length - 3);
    expect(thinCases.map((faultCase) => faultCase.id)).toEqual([]);
  });

  it.concurrent.each(tableOf(MALFORMED_OUTPUT_CASES.filter((faultCase) => !faultCase.heavy)))('%s', expectEveryFamilyToEndTruthfully, 180_000);

  // Alone, so megabytes through the pipes do not starve the event loop the other runs read on.
  describe('heavy cases, one at a time', () => {
    it.each(tableOf(MALFORMED_OUTPUT_CASES.filter((faultCase) => faultCase.heavy)))('%s', expectEveryFamilyToEndTruthfully, 180_000);
  });
});
