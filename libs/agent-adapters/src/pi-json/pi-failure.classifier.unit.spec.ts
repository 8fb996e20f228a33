import { classifyProviderFailure } from '../failure-classification/provider-failure.rules';
import { describeRecordedFailureTable } from '../failure-classification/failure-table.spec-helper';

/** Pi prints the provider's status and message as they are (`429 Rate limit reached ...`): the shared rules read it. */
describe('Pi failure classification on recorded real CLI output', () => {
  describeRecordedFailureTable({ family: 'pi-json', classify: classifyProviderFailure, clis: ['pi'] });
});
