import { separateAgentSecrets } from '@switchyard/contracts';
import { createCurveSeed, curveKeyHolder, sealToCurveKey } from '@switchyard/messaging';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { openClaimedTask } from './claimed-task.opener';

describe('opening a claimed task', () => {
  const daemonKey = curveKeyHolder(createCurveSeed());
  const plain = sampleClaimedTask();
  const withSecret = { ...plain, agent: { ...plain.agent, env: { API_KEY: 'sk-sealed-value' } } };
  const { agent, values } = separateAgentSecrets(withSecret.agent, 'task-1.1');

  it('puts the sealed values back in place of their references', () => {
    const opened = openClaimedTask({ ...withSecret, agent, sealedSecrets: sealToCurveKey(daemonKey.publicKey, JSON.stringify(values)) }, daemonKey);

    expect(opened.agent).toEqual(withSecret.agent);
    expect(opened.sealedSecrets).toBeNull();
  });

  it('refuses a box sealed to another daemon, and references without a box', () => {
    const other = curveKeyHolder(createCurveSeed());

    expect(() => openClaimedTask({ ...withSecret, agent, sealedSecrets: sealToCurveKey(other.publicKey, JSON.stringify(values)) }, daemonKey)).toThrow(/does not open/);
    expect(() => openClaimedTask({ ...withSecret, agent, sealedSecrets: null }, daemonKey)).toThrow("no value for secret-ref:task-1.1/0");
  });
});
