import { curveKeyHolder } from '@switchyard/messaging';

/**
 * The curve key test daemons claim with (`sealingKey`) and open their tasks' secrets with. Fixed,
 * because the queue pins the first key a daemon id claims with and tests reuse daemon ids. A test
 * key only: it seals nothing outside tests.
 */
export const TEST_SEALING_KEY = curveKeyHolder('SXAMTA6JJVEAOLCURVADVPGMMIHUB3O7KCP55OAZ7USFQLIS2XNCG3AA4M');
